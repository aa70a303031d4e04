export { toolUse } from './blocks';
