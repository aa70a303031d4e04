export { toLangChainTools, ContainerTool, type LangChainToolsOptions } from './to-langchain-tools';
export type { ApprovalAnswer } from './graph-approvals';
