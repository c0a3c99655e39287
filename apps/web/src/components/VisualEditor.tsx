/**
 * The visual mode of RichTextEditor (tiptap, loaded only when a rich text field is edited): headings,
 * bold, italic, underline, strike, lists, quotes, links, undo. It writes HTML made of the tags the
 * server keeps (richTextPolicy); the server sanitises whatever arrives all the same.
 */
import { useEffect } from 'react';
import { Button, Divider, Space, Tooltip } from 'antd';
import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

interface Tool {
  label: string;
  icon: React.ReactNode;
  active?: (editor: Editor) => boolean;
  run: (editor: Editor) => void;
}

const tools: Tool[] = [
  {
    label: '小标题',
    icon: 'H2',
    active: (e) => e.isActive('heading', { level: 2 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(),
  },
  {
    label: '三级标题',
    icon: 'H3',
    active: (e) => e.isActive('heading', { level: 3 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
  },
  {
    label: '加粗',
    icon: <BoldOutlined />,
    active: (e) => e.isActive('bold'),
    run: (e) => e.chain().focus().toggleBold().run(),
  },
  {
    label: '斜体',
    icon: <ItalicOutlined />,
    active: (e) => e.isActive('italic'),
    run: (e) => e.chain().focus().toggleItalic().run(),
  },
  {
    label: '下划线',
    icon: <UnderlineOutlined />,
    active: (e) => e.isActive('underline'),
    run: (e) => e.chain().focus().toggleUnderline().run(),
  },
  {
    label: '删除线',
    icon: <StrikethroughOutlined />,
    active: (e) => e.isActive('strike'),
    run: (e) => e.chain().focus().toggleStrike().run(),
  },
  {
    label: '无序列表',
    icon: <UnorderedListOutlined />,
    active: (e) => e.isActive('bulletList'),
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    label: '有序列表',
    icon: <OrderedListOutlined />,
    active: (e) => e.isActive('orderedList'),
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    label: '引用',
    icon: '“”',
    active: (e) => e.isActive('blockquote'),
    run: (e) => e.chain().focus().toggleBlockquote().run(),
  },
  {
    label: '链接',
    icon: <LinkOutlined />,
    active: (e) => e.isActive('link'),
    run: (e) => {
      const current = (e.getAttributes('link').href as string | undefined) ?? 'https://';
      const href = window.prompt('链接地址（http、https 或 mailto；留空则取消链接）', current);
      if (href === null) return;
      if (href.trim() === '') e.chain().focus().extendMarkRange('link').unsetLink().run();
      else e.chain().focus().extendMarkRange('link').setLink({ href: href.trim() }).run();
    },
  },
];

/** The document as stored: nothing when empty, and no empty paragraphs trailing after the text. */
const htmlOf = (editor: Editor) => (editor.isEmpty ? '' : editor.getHTML().replace(/(<p><\/p>)+$/, ''));

export default function VisualEditor({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange: (html: string) => void;
  id?: string;
}) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        code: false,
        codeBlock: false,
        horizontalRule: false,
        link: { openOnClick: false, protocols: ['mailto'], HTMLAttributes: { rel: 'noopener noreferrer' } },
      }),
    ],
    content: value,
    editorProps: {
      attributes: { id: id ?? '', 'aria-label': '可视化编辑区', class: 'visual-editor-content' },
    },
    onUpdate: ({ editor: e }) => onChange(htmlOf(e)),
  });
  // A value set from outside (the form opening another record) replaces what is shown.
  useEffect(() => {
    if (editor && value !== htmlOf(editor)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => (e ? tools.map((t) => t.active?.(e) ?? false) : []),
  });
  if (!editor) return null;
  return (
    <div className="visual-editor">
      <Space size={2} wrap className="visual-editor-toolbar" role="toolbar" aria-label="排版工具">
        {tools.map((tool, i) => (
          <Tooltip key={tool.label} title={tool.label}>
            <Button
              size="small"
              type={active?.[i] ? 'primary' : 'text'}
              aria-label={tool.label}
              aria-pressed={active?.[i] ?? false}
              icon={typeof tool.icon === 'string' ? undefined : tool.icon}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => tool.run(editor)}
            >
              {typeof tool.icon === 'string' ? tool.icon : null}
            </Button>
          </Tooltip>
        ))}
        <Divider orientation="vertical" />
        <Button
          size="small"
          type="text"
          aria-label="撤销"
          icon={<UndoOutlined />}
          onClick={() => editor.chain().focus().undo().run()}
        />
        <Button
          size="small"
          type="text"
          aria-label="重做"
          icon={<RedoOutlined />}
          onClick={() => editor.chain().focus().redo().run()}
        />
      </Space>
      <EditorContent editor={editor} />
    </div>
  );
}
