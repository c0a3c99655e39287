/**
 * The HTML that rich-text fields (`field.richtext`) may hold: the server's sanitiser keeps only this
 * (apps/server/src/lib/sanitize-html.ts), and the console's editor previews the same.
 */

export interface RichTextPolicy {
  tags: readonly string[];
  /** The attributes each tag may carry; a tag not named here carries none. */
  attributes: Record<string, string[]>;
  /** The URL schemes each tag's links may use. */
  schemes: Record<string, string[]>;
}

/**
 * What rich text may contain: these tags, these attributes per tag, and links and images only
 * with these URL schemes (or relative paths). Everything else (script, style, iframe, on* handlers,
 * javascript: URLs, inline styles) is removed.
 */
export const richTextPolicy: RichTextPolicy = {
  tags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'span',
    'div',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  attributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  /** URL schemes allowed in href and src. */
  schemes: { a: ['http', 'https', 'mailto', 'tel'], img: ['http', 'https'] },
};
