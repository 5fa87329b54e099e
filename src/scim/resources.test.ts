import { describe, expect, it } from 'vitest';
import { Errors } from '../http/errors.js';
import { isGatewayError } from '../protocol/gateway-error.js';
import { errorResource, filterBy, page } from './resources.js';

describe('page', () => {
  it('is 1-based, counts a startIndex below 1 as 1, and bounds count to 0..max', () => {
    expect(page({}, 100)).toEqual({ startIndex: 1, offset: 0, count: 100 });
    expect(page({ startIndex: '0', count: '500' }, 100)).toEqual({ startIndex: 1, offset: 0, count: 100 });
    expect(page({ startIndex: '11', count: '-3' }, 100)).toEqual({ startIndex: 11, offset: 10, count: 0 });
    expect(() => page({ count: '1e9' }, 100)).toThrow(/count must be an integer/);
  });
});

describe('errorResource', () => {
  it("is RFC 7644's error body: status as a string, scimType from the error, uniqueness for a 409", () => {
    expect(errorResource(Errors.scimInvalid({ scimType: 'invalidFilter' }, 'filter: bad'))).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '400',
      scimType: 'invalidFilter',
      detail: 'filter: bad',
    });
    expect(errorResource(Errors.scimConflict('taken'))).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect(errorResource(Errors.notFound('User'))).not.toHaveProperty('scimType');
  });
});

describe('filterBy', () => {
  const attributes = { username: 'userName', id: 'id' } as const;

  it('gathers the values compared with each known attribute, whatever the case of its name', () => {
    expect(
      filterBy(
        [
          { attribute: 'USERNAME', value: 'a' },
          { attribute: 'id', value: 'x' },
          { attribute: 'userName', value: 'b' },
        ],
        attributes,
      ),
    ).toEqual({ userName: ['a', 'b'], id: ['x'] });
  });

  it('refuses another attribute, naming those it filters on, and a value that is not a string', () => {
    for (const comparison of [
      { attribute: 'title', value: 'a' },
      { attribute: 'userName', value: true },
    ]) {
      try {
        filterBy([comparison], attributes);
        expect.unreachable();
      } catch (error) {
        expect(isGatewayError(error) && error.metadata?.scimType).toBe('invalidFilter');
      }
    }
    expect(() => filterBy([{ attribute: 'title', value: 'a' }], attributes)).toThrow('filter on userName, id');
  });
});
