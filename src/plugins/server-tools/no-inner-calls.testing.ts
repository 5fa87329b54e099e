import type { InnerCalls } from './server-tool.js';

/** For tests of tools that make no inner calls: one would be a bug. */
export const noInnerCalls: InnerCalls = async () => {
  throw new Error('this test expects no inner calls');
};
