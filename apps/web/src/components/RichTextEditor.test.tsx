import { describe, expect, test } from 'vitest';
import { cleanRichText } from './RichTextEditor.tsx';

describe('cleanRichText (the editor preview) follows the server policy', () => {
  test('removes scripts, styles, iframes, handlers and javascript: URLs; keeps safe markup', () => {
    const html =
      '<h2>标题</h2><p onclick="x()">段落<strong>加粗</strong><script>alert(1)</script></p>' +
      '<img src="/a.png" onerror="alert(1)" alt="图"><a href="java\tscript:alert(1)">坏</a>' +
      '<a href="//evil.example.com">协议相对</a><a href="https://example.com">好</a>' +
      '<iframe srcdoc="x"></iframe><style>p{}</style><p style="color:red">样式</p><font>解包</font>';
    const clean = cleanRichText(html);
    for (const bad of ['script', 'onclick', 'onerror', 'javascript', 'iframe', 'style', 'evil', 'font']) {
      expect(clean).not.toContain(bad);
    }
    expect(clean).toContain('<h2>标题</h2>');
    expect(clean).toContain('<strong>加粗</strong>');
    expect(clean).toContain('<img src="/a.png" alt="图">');
    expect(clean).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">好</a>');
    expect(clean).toContain('<p>样式</p>解包');
  });
});
