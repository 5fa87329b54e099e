import type { FunctionComponent } from 'preact';
import type { Workspace } from '../api';
import { Byok } from './byok';
import { Destinations } from './destinations';
import { Files } from './files';

/** Pages of the workspace chosen in the switcher, by route: each lists that workspace's things alone. */
export const WORKSPACE_PAGES = new Map<string, FunctionComponent<{ workspace: Workspace }>>([
  ['byok', Byok],
  ['destinations', Destinations],
  ['files', Files],
]);
