export { toOpenAiAgentsTools, type OpenAiAgentsToolsOptions } from './to-openai-agents-tools';
