import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { BROWSER_TIP_DISMISSED, BROWSER_TIP_KEY, messages } from '@cowork/contract';
import { BrowserTip, isChrome, useBrowserTip } from './BrowserTip.tsx';

const ua = {
  chrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
};

describe('isChrome', () => {
  it('recognises Chrome and nothing else', () => {
    expect(isChrome(ua.chrome)).toBe(true);
    for (const other of [ua.headless, ua.edge, ua.opera, ua.firefox, ua.safari])
      expect(isChrome(other)).toBe(false);
  });
});

function Harness() {
  const tip = useBrowserTip();
  return tip.visible ? <BrowserTip onClose={tip.dismiss} /> : <span>无提示</span>;
}

describe('BrowserTip', () => {
  it('shows outside Chrome and remembers being closed', () => {
    // happy-dom's user agent is not Chrome's.
    const first = render(<Harness />);
    const tip = screen.getByTestId('browser-tip');
    expect(tip.textContent).toContain(messages.browserTip);
    fireEvent.click(screen.getByRole('button', { name: '关闭提示' }));
    expect(screen.queryByTestId('browser-tip')).toBeNull();
    expect(localStorage.getItem(BROWSER_TIP_KEY)).toBe(BROWSER_TIP_DISMISSED);
    first.unmount();
    render(<Harness />);
    expect(screen.getByText('无提示')).toBeTruthy();
  });
});
