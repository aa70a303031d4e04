import { ToolContainer } from '@toolwright/core';
import { OrdersTools } from './orders.tools.js';
// Written by tools-codegen: `npm run codegen`, which npm runs before build, test and start.
// "Cannot find module './tools.generated.js'" means it has not run yet.
import { toolManifest } from './tools.generated.js';

/** The app's tools: the generated definitions, checked against the decorated classes as it starts. */
export function createTools(): ToolContainer {
  return new ToolContainer({ manifest: toolManifest, providers: [new OrdersTools()] });
}
