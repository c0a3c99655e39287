import { useEffect, useRef } from 'react';
import { App } from 'antd';
import { registerOpenForm, takeKeptForm, type KeptForm } from './form-drafts.ts';

// Apart from form-drafts.ts: request.ts (loaded with the login page) needs only keepOpenForms, not
// this hook's antd App.

export const KEPT_FORM_NOTE = '登录已过期，页面已重新载入：您未保存的内容已恢复，请检查后点击“保存”。';

/**
 * Keeps a form while it is open and gives it back after a reload: `read` answers its context and
 * values (called only when the page is about to reload), `restore` reopens it once on mount, and
 * the user is told their work came back.
 */
export function useKeptForm(
  key: string,
  open: boolean,
  read: () => KeptForm,
  restore: (kept: KeptForm) => void,
): void {
  const { message } = App.useApp();
  const readRef = useRef(read);
  const restoreRef = useRef(restore);
  useEffect(() => {
    readRef.current = read;
    restoreRef.current = restore;
  });
  useEffect(() => {
    if (!open) return;
    return registerOpenForm(key, () => readRef.current());
  }, [key, open]);
  useEffect(() => {
    const kept = takeKeptForm(key);
    if (!kept) return;
    restoreRef.current(kept);
    void message.info(KEPT_FORM_NOTE, 8);
  }, [key, message]);
}
