export { scaffold, TargetError, type ScaffoldOptions } from './scaffold';
export { TEMPLATES, TEMPLATE_NAMES, type Template, type TemplateName } from './templates';
