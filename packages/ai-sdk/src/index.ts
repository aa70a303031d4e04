export { toAiSdkTools, type AiSdkToolsOptions } from './to-ai-sdk-tools';
export { isOpenAiStrictSchema } from './strict-schema';
