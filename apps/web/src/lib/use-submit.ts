/**
 * The mutation behind a form's 保存 (and the confirm of a dialog): one submission at a time. A
 * second click while the first request runs is ignored at once — before React has re-rendered the
 * button as loading, which a fast double click beats — so it can neither write twice nor toast
 * twice. The request layer gives each create its Idempotency-Key (lib/request.ts), so a retry that
 * gets through anyway is answered with the first result by the server.
 */
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type { RequestError } from './request.ts';

export function useSubmit<TData = unknown, TVariables = void>(
  options: UseMutationOptions<TData, RequestError, TVariables>,
) {
  const mutation = useMutation<TData, RequestError, TVariables>(options);
  const busy = useRef(false);
  const { mutate: run } = mutation;
  const mutate = useCallback(
    (variables: TVariables) => {
      if (busy.current) return;
      busy.current = true;
      run(variables, {
        onSettled: () => {
          busy.current = false;
        },
      });
    },
    [run],
  );
  return { ...mutation, mutate };
}
