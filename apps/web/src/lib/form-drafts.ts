/**
 * Open forms survive the reload of an expired session. The console reloads the page after a 424
 * token refresh, and a failed refresh goes through /login and back: either would throw away a
 * drawer being filled. While a form is open it registers here; just before such a reload or sign-in
 * redirect, request.ts calls keepOpenForms(), which writes every open form's values to this tab's
 * sessionStorage; the page, once back, reopens the form with them (use-kept-form.ts) and says so.
 *
 * Kept only for the same signed-in user and the same path, for 30 minutes, and taken once.
 */
import dayjs from 'dayjs';
import { readUserInfo } from './session.ts';

export const KEPT_FORMS_KEY = 'cowork.keptForms';
const KEEP_FOR_MS = 30 * 60 * 1000;

/** What a page needs to reopen its form: which record (or 'new') and the values typed so far. */
export interface KeptForm {
  context: unknown;
  values: Record<string, unknown>;
}

interface KeptForms {
  user: string | undefined;
  path: string;
  keptAt: number;
  forms: Record<string, KeptForm>;
}

const openForms = new Map<string, () => KeptForm>();

/** Registers an open form under a key unique on its page; answers the function that unregisters it. */
export function registerOpenForm(key: string, read: () => KeptForm): () => void {
  openForms.set(key, read);
  return () => {
    if (openForms.get(key) === read) openForms.delete(key);
  };
}

/** Passwords and secrets are never written to storage: those fields come back empty. */
const SECRET_FIELD = /password|secret/i;

// Dates typed into pickers are dayjs objects: kept as tagged ISO text and revived as dayjs.
function replacer(this: Record<string, unknown>, key: string, value: unknown) {
  if (SECRET_FIELD.test(key)) return undefined;
  const original = this[key];
  return dayjs.isDayjs(original) ? { $dayjs: original.toISOString() } : value;
}
function reviver(_key: string, value: unknown) {
  return value && typeof value === 'object' && '$dayjs' in value && typeof value.$dayjs === 'string'
    ? dayjs(value.$dayjs)
    : value;
}

/** Writes every open form to sessionStorage; called right before the page reloads or leaves. */
export function keepOpenForms(): void {
  if (openForms.size === 0) return;
  const forms: Record<string, KeptForm> = {};
  for (const [key, read] of openForms) {
    try {
      forms[key] = read();
    } catch {
      // A form that cannot be read is not worth losing the others for.
    }
  }
  const kept: KeptForms = {
    user: readUserInfo().username,
    path: window.location.pathname,
    keptAt: Date.now(),
    forms,
  };
  try {
    sessionStorage.setItem(KEPT_FORMS_KEY, JSON.stringify(kept, replacer));
  } catch {
    // Storage full or disabled: the reload goes on as before.
  }
}

/** The kept form of `key` on this page for this user, removed as it is taken. */
export function takeKeptForm(key: string): KeptForm | undefined {
  let kept: KeptForms;
  try {
    // JSON.parse answers any: the checks below read it as what keepOpenForms wrote.
    kept = JSON.parse(sessionStorage.getItem(KEPT_FORMS_KEY) ?? 'null', reviver);
  } catch {
    sessionStorage.removeItem(KEPT_FORMS_KEY);
    return undefined;
  }
  if (!kept?.forms) return undefined;
  if (kept.user !== readUserInfo().username || Date.now() - kept.keptAt >= KEEP_FOR_MS) {
    // Another user signed in, or it is old: nothing of it may show.
    sessionStorage.removeItem(KEPT_FORMS_KEY);
    return undefined;
  }
  if (kept.path !== window.location.pathname) return undefined;
  const form = kept.forms[key];
  if (!form) return undefined;
  delete kept.forms[key];
  if (Object.keys(kept.forms).length === 0) sessionStorage.removeItem(KEPT_FORMS_KEY);
  else sessionStorage.setItem(KEPT_FORMS_KEY, JSON.stringify(kept, replacer));
  return form;
}
