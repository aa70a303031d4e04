import 'reflect-metadata';

// Every reflect-metadata key toolwright writes, in one place so readers and writers agree.
export const TOOL_METHODS = 'toolwright:tool-methods';
export const TOOL_OPTIONS = 'toolwright:tool-options';
export const TOOL_PARAMS = 'toolwright:tool-params';
export const TOOL_GROUP = 'toolwright:tool-group';
