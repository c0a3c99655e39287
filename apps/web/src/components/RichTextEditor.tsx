/**
 * Rich text input: the HTML source in a textarea, with a live preview of what the server will keep.
 * No editor library: none is in our stack, and staff paste formatted text from elsewhere more than
 * they compose it here. The preview applies the contract's `richTextPolicy` (the allow-list the
 * server's sanitize-html uses) in an inert DOMParser document, so what is shown is what is stored.
 *
 * @example <Form.Item name="content" label="正文"><RichTextEditor /></Form.Item>
 */
import { useDeferredValue, useMemo } from 'react';
import { Input, Typography } from 'antd';
import { richTextPolicy } from '@cowork/contract';

/** Tags removed with everything inside them (their text is code, not content). */
const DROPPED = new Set([
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'iframe',
  'object',
  'embed',
  'template',
]);
const allowedTags = new Set<string>(richTextPolicy.tags);

function urlAllowed(value: string, schemes: readonly string[] | undefined): boolean {
  // Browsers ignore control characters and spaces inside a scheme (`java\tscript:`).
  const compact = Array.from(value)
    .filter((c) => c.charCodeAt(0) > 0x20)
    .join('');
  if (compact.startsWith('//')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  return scheme === undefined || (schemes ?? []).includes(scheme);
}

/** The HTML as the server will store it: allowed tags and attributes only. */
export function cleanRichText(html: string): string {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  const clean = (parent: Element) => {
    for (const child of Array.from(parent.children)) {
      const tag = child.tagName.toLowerCase();
      if (DROPPED.has(tag)) {
        child.remove();
        continue;
      }
      clean(child);
      if (!allowedTags.has(tag)) {
        child.replaceWith(...Array.from(child.childNodes));
        continue;
      }
      const allowed = richTextPolicy.attributes[tag] ?? [];
      for (const { name, value } of Array.from(child.attributes)) {
        const isUrl = name === 'href' || name === 'src';
        if (!allowed.includes(name) || (isUrl && !urlAllowed(value, richTextPolicy.schemes[tag]))) {
          child.removeAttribute(name);
        }
      }
      if (tag === 'a' && child.hasAttribute('href')) {
        child.setAttribute('target', '_blank');
        child.setAttribute('rel', 'noopener noreferrer');
      }
    }
  };
  clean(doc.body);
  return doc.body.innerHTML.trim();
}

export interface RichTextEditorProps {
  value?: string | null;
  onChange?: (value: string) => void;
  placeholder?: string;
  /** Set by Form.Item so the label points at the textarea. */
  id?: string;
}

export function RichTextEditor({ value, onChange, placeholder, id }: RichTextEditorProps) {
  const source = useDeferredValue(value ?? '');
  const preview = useMemo(() => cleanRichText(source), [source]);
  return (
    <div className="rich-text-editor">
      <Input.TextArea
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange?.(e.target.value)}
        rows={10}
        placeholder={placeholder ?? '输入或粘贴 HTML，如 <p>段落</p>、<strong>加粗</strong>、<h2>小标题</h2>'}
      />
      <Typography.Text type="secondary" style={{ display: 'block', margin: '8px 0 4px' }}>
        预览（保存时只保留安全的排版标签，脚本、样式和事件属性会被去掉）
      </Typography.Text>
      <div
        className="rich-text-preview"
        aria-label="正文预览"
        role="region"
        style={{
          border: '1px solid var(--ant-color-border, #d9d9d9)',
          borderRadius: 6,
          padding: '8px 12px',
          minHeight: 60,
          maxHeight: 320,
          overflow: 'auto',
        }}
        // The preview shows only what cleanRichText kept: the same allow-list the server applies.
        dangerouslySetInnerHTML={{ __html: preview || '<span style="color:#bbb">（空）</span>' }}
      />
    </div>
  );
}

export default RichTextEditor;
