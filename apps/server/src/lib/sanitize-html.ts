/**
 * Rich text is cleaned before it is stored: only the contract's `richTextPolicy` survives (its
 * tags, its attributes per tag, links and images with its URL schemes or relative paths). Scripts,
 * styles, iframes, event handlers and `javascript:` URLs go, with the content of script-like tags.
 * lib/crud.ts applies it to every `richtext` field, so no screen can forget it.
 *
 * @example sanitizeRichText('<p onclick="x()">hi<script>x()</script></p>') // '<p>hi</p>'
 */
import sanitizeHtml from 'sanitize-html';
import { richTextPolicy } from '@cowork/contract';

const options: sanitizeHtml.IOptions = {
  allowedTags: [...richTextPolicy.tags],
  // target and rel are set on links below (transformTags runs before the attribute allow-list).
  allowedAttributes: { ...richTextPolicy.attributes, a: [...richTextPolicy.attributes.a, 'target', 'rel'] },
  allowedSchemes: [],
  allowedSchemesByTag: richTextPolicy.schemes,
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Tags whose text is code, not content: dropped whole rather than unwrapped.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links open outside the page that shows them, without handing it a window reference.
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.href ? { ...attribs, target: '_blank', rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options).trim();
}

/** Whether cleaned rich text still shows something: text or an image. */
export function hasRichContent(html: string): boolean {
  return /<img\s/i.test(html) || sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim() !== '';
}
