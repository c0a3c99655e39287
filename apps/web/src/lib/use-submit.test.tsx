import { describe, expect, it } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSubmit } from './use-submit.ts';

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
);

describe('useSubmit', () => {
  it('a second submit while the first runs is ignored; after it settles the next one runs', async () => {
    const calls: string[] = [];
    let finish: () => void = () => {};
    const { result } = renderHook(
      () =>
        useSubmit({
          mutationFn: (name: string) => {
            calls.push(name);
            return new Promise<void>((resolve) => (finish = resolve));
          },
        }),
      { wrapper },
    );
    // Two clicks in the same tick, before any re-render: the double click of the finding.
    act(() => {
      result.current.mutate('first');
      result.current.mutate('second');
    });
    await waitFor(() => expect(calls).toEqual(['first']));
    await act(async () => finish());
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    act(() => result.current.mutate('third'));
    await waitFor(() => expect(calls).toEqual(['first', 'third']));
  });
});
