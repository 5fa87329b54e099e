import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../protocol/chat.js';
import { applyWorkspaceSort, NO_WORKSPACE_DEFAULTS } from './workspace-defaults.js';

const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const sorting = { ...NO_WORKSPACE_DEFAULTS, providerSort: 'price' };

describe('applyWorkspaceSort', () => {
  it('sets the workspace’s sort where the request sets none, keeping its other preferences', () => {
    expect(applyWorkspaceSort(request, sorting).provider).toEqual({ sort: 'price' });
    expect(applyWorkspaceSort({ ...request, provider: { only: ['a'] } }, sorting).provider).toEqual({ only: ['a'], sort: 'price' });
  });

  it('leaves a request’s own sort, an explicit null, and a workspace without a sort alone', () => {
    for (const sort of ['latency', null]) {
      const own = { ...request, provider: { sort } };
      expect(applyWorkspaceSort(own, sorting)).toBe(own);
    }
    expect(applyWorkspaceSort(request, NO_WORKSPACE_DEFAULTS)).toBe(request);
  });
});
