/**
 * Rich text input in two modes: 可视化 (a tiptap editor with a toolbar, its own chunk loaded only
 * here) and HTML 源码 (the source in a textarea, with a live preview of what the server will keep).
 * The preview applies the contract's `richTextPolicy` (the allow-list the server's sanitize-html
 * uses) in an inert DOMParser document, so what is shown is what is stored; the server sanitises
 * whatever either mode sends.
 *
 * @example <Form.Item name="content" label="正文"><RichTextEditor /></Form.Item>
 */
import { lazy, Suspense, useDeferredValue, useMemo, useState } from 'react';
import { Input, Segmented, Skeleton, Typography } from 'antd';
import './rich-text-editor.css';

const VisualEditor = lazy(() => import('./VisualEditor.tsx'));
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
  const [mode, setMode] = useState<'visual' | 'source'>('visual');
  const source = useDeferredValue(value ?? '');
  const preview = useMemo(() => cleanRichText(source), [source]);
  return (
    <div className="rich-text-editor">
      <Segmented
        size="small"
        value={mode}
        onChange={setMode}
        options={[
          { value: 'visual', label: '可视化编辑' },
          { value: 'source', label: 'HTML 源码' },
        ]}
        style={{ marginBottom: 8 }}
      />
      {mode === 'visual' ? (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
          <VisualEditor id={id} value={value ?? ''} onChange={(html) => onChange?.(html)} />
        </Suspense>
      ) : (
        <>
          <Input.TextArea
            id={id}
            value={value ?? ''}
            onChange={(e) => onChange?.(e.target.value)}
            rows={10}
            placeholder={
              placeholder ?? '输入或粘贴 HTML，如 <p>段落</p>、<strong>加粗</strong>、<h2>小标题</h2>'
            }
          />
          <Typography.Text type="secondary" style={{ display: 'block', margin: '8px 0 4px' }}>
            预览（保存时只保留安全的排版标签，脚本、样式和事件属性会被去掉）
          </Typography.Text>
          <div
            className="rich-text-preview"
            aria-label="正文预览"
            role="region"
            // The preview shows only what cleanRichText kept: the same allow-list the server applies.
            dangerouslySetInnerHTML={{ __html: preview || '<span style="color:#bbb">（空）</span>' }}
          />
        </>
      )}
    </div>
  );
}

export default RichTextEditor;
