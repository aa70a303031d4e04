export { toLangChainTools, ContainerTool, type LangChainToolsOptions } from './to-langchain-tools';
