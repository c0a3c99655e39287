import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USER_INFO_KEY } from '@cowork/contract';
import { KEPT_FORMS_KEY, keepOpenForms, registerOpenForm, takeKeptForm } from './form-drafts.ts';

const signedInAs = (username: string) => localStorage.setItem(USER_INFO_KEY, JSON.stringify({ username }));

let unregister: (() => void) | undefined;
beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  window.history.replaceState(null, '', '/clue/place');
  signedInAs('yunying');
});
afterEach(() => unregister?.());

describe('forms kept across an expired session', () => {
  it('gives an open form back once, dates as dates and without passwords', () => {
    const day = dayjs('2026-12-01T02:00:00.000Z');
    unregister = registerOpenForm('resource:site', () => ({
      context: 'new',
      values: {
        contactName: '钱晓东',
        expectedDate: day,
        password: 'Secret@123',
        nested: { newPassword: 'x' },
      },
    }));
    keepOpenForms();
    expect(sessionStorage.getItem(KEPT_FORMS_KEY)).not.toContain('Secret@123');

    const kept = takeKeptForm('resource:site');
    expect(kept?.context).toBe('new');
    expect(kept?.values.contactName).toBe('钱晓东');
    expect(dayjs.isDayjs(kept?.values.expectedDate)).toBe(true);
    expect((kept?.values.expectedDate as dayjs.Dayjs).valueOf()).toBe(day.valueOf());
    expect(kept?.values.password).toBeUndefined();
    expect(kept?.values.nested).toEqual({});
    expect(takeKeptForm('resource:site')).toBeUndefined();
  });

  it('keeps nothing when no form is open, and forgets a form once it closed', () => {
    keepOpenForms();
    expect(sessionStorage.getItem(KEPT_FORMS_KEY)).toBeNull();
    registerOpenForm('resource:site', () => ({ context: null, values: { a: 1 } }))();
    keepOpenForms();
    expect(sessionStorage.getItem(KEPT_FORMS_KEY)).toBeNull();
  });

  it('shows nothing to another user, and nothing on another page', () => {
    unregister = registerOpenForm('resource:site', () => ({ context: 'new', values: { a: 1 } }));
    keepOpenForms();
    window.history.replaceState(null, '', '/clue/cooperate');
    expect(takeKeptForm('resource:site')).toBeUndefined();
    window.history.replaceState(null, '', '/clue/place');
    signedInAs('caiwu');
    expect(takeKeptForm('resource:site')).toBeUndefined();
    // Dropped, not merely hidden: the first user gets nothing back either.
    signedInAs('yunying');
    expect(takeKeptForm('resource:site')).toBeUndefined();
  });

  it('survives unreadable storage', () => {
    sessionStorage.setItem(KEPT_FORMS_KEY, '{not json');
    expect(takeKeptForm('resource:site')).toBeUndefined();
    expect(sessionStorage.getItem(KEPT_FORMS_KEY)).toBeNull();
  });
});
