/** The form input and the table cell of each field kind, shared by every resource page. */
import { useMemo, useRef, type ReactNode } from 'react';
import { App, DatePicker, Input, InputNumber, Select, Switch, Tag, TimePicker, type FormRule } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import {
  formatPercent,
  formatYuan,
  type Field,
  type ListOption,
  type Option,
  type ReferenceField,
} from '@cowork/contract';
import { formatTime, fromBusinessTime, toBusinessTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { isStrings } from '../../lib/values.ts';
import { RichTextEditor } from '../RichTextEditor.tsx';
import { Upload } from '../Upload.tsx';

/**
 * What Form.Item gives the input it wraps: the value it holds, its change handler and the id its
 * label points at (with aria attributes, passed on as they come).
 */
interface ControlProps {
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

/** A text input's value: text or a number as it is (an empty input holds nothing). */
const textOf = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? value : undefined;
/** A number input's value: a number, or text it reads as one; null when cleared. */
const numberOf = (value: unknown) =>
  typeof value === 'number' || typeof value === 'string' || value === null ? value : undefined;
/** Uploaded URLs: one (image) or a list (images); null when cleared. */
const urlsOf = (value: unknown) =>
  typeof value === 'string' || isStrings(value) || value === null ? value : undefined;

/**
 * Free-text tags (楼层 8F、B1). Select's tags mode drops a tag that is typed again (it toggles it);
 * here a tag typed again stays, and the form says it is already there.
 */
function TagsInput({ field, value, onChange, ...props }: { field: Field } & ControlProps) {
  const { message } = App.useApp();
  const typed = useRef('');
  const current = isStrings(value) ? value : [];
  return (
    <Select
      {...props}
      value={isStrings(value) ? value : undefined}
      mode="tags"
      notFoundContent={null}
      tokenSeparators={[',', '，', ' ']}
      placeholder={`请输入${field.label}，按回车添加`}
      onSearch={(text) => {
        typed.current = text;
      }}
      onChange={(next: string[]) => {
        const again = typed.current.trim();
        typed.current = '';
        const removed = current.filter((tag) => !next.includes(tag));
        if (again && removed.length === 1 && removed[0] === again) {
          void message.info(`${field.label}“${again}”已在列表中，无需重复添加`);
          return;
        }
        onChange?.(next);
      }}
    />
  );
}

/** Options of a reference field, from its `list` endpoint (cached per endpoint). */
export function useListOptions(endpoint: string | undefined) {
  return useQuery({
    queryKey: ['list', endpoint],
    queryFn: () => api.get<ListOption[]>(endpoint ?? ''),
    enabled: Boolean(endpoint),
    staleTime: 60_000,
  });
}

function ReferenceSelect({ field, ...props }: { field: ReferenceField } & ControlProps) {
  const options = useListOptions(field.listEndpoint);
  return (
    <Select
      {...props}
      mode={field.kind === 'references' ? 'multiple' : undefined}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={options.isFetching}
      placeholder={`请选择${field.label}`}
      options={options.data?.map((o) => ({ value: o.value, label: o.label }))}
    />
  );
}

const yuan = (fen: unknown) => (typeof fen === 'number' ? formatYuan(fen) : '—');
/** Entered in yuan or percent with two decimals, stored in fen or basis points: a hundredth. */
const hundredths = (value: unknown) => (typeof value === 'number' ? value / 100 : undefined);
const fromHundredths = (value: number | string | null) =>
  typeof value === 'number' ? Math.round(value * 100) : null;

/** The input of one field in the create/edit form (value and onChange come from Form.Item). */
export function FieldInput({ field, ...props }: { field: Field } & ControlProps) {
  const { value, onChange, ...passed } = props;
  const placeholder = `请输入${field.label}`;
  switch (field.kind) {
    case 'textarea':
      return (
        <Input.TextArea
          {...passed}
          value={textOf(value)}
          onChange={onChange}
          rows={4}
          placeholder={placeholder}
        />
      );
    case 'richtext':
      return (
        <RichTextEditor
          {...passed}
          value={typeof value === 'string' ? value : undefined}
          onChange={onChange}
        />
      );
    case 'integer':
      return (
        <InputNumber
          {...passed}
          value={numberOf(value)}
          onChange={onChange}
          precision={0}
          style={{ width: '100%' }}
          placeholder={placeholder}
        />
      );
    case 'decimal':
      return (
        <InputNumber
          {...passed}
          value={numberOf(value)}
          onChange={onChange}
          style={{ width: '100%' }}
          placeholder={placeholder}
        />
      );
    case 'money':
      // Entered in yuan, stored in fen. The rest of the props (the id its label points at) pass on.
      return (
        <InputNumber
          {...passed}
          value={hundredths(value)}
          onChange={(v) => onChange?.(fromHundredths(v))}
          min={0}
          precision={2}
          prefix="¥"
          style={{ width: '100%' }}
          placeholder={placeholder}
        />
      );
    case 'percent':
      // Entered as a percentage with two decimals, stored in basis points.
      return (
        <InputNumber
          id={passed.id}
          value={hundredths(value)}
          onChange={(v) => onChange?.(fromHundredths(v))}
          min={0}
          max={100}
          precision={2}
          suffix="%"
          style={{ width: '100%' }}
          placeholder={placeholder}
        />
      );
    case 'boolean':
      // The item's id, so its label names the switch (screen readers, and tests finding it by label).
      return <Switch id={passed.id} checked={Boolean(value)} onChange={onChange} />;
    case 'enum':
      return (
        <Select
          {...props}
          placeholder={`请选择${field.label}`}
          options={field.options.map((o) => ({ value: o.value, label: o.label }))}
        />
      );
    case 'date':
    case 'datetime': {
      const kind = field.kind;
      return (
        <DatePicker
          showTime={kind === 'datetime'}
          // A picked day counts at once; 确定 is not needed to keep it.
          needConfirm={false}
          style={{ width: '100%' }}
          value={fromBusinessTime(value, kind)}
          onChange={(d) => onChange?.(toBusinessTime(d, kind))}
        />
      );
    }
    case 'time':
      return (
        <TimePicker
          id={passed.id}
          format="HH:mm"
          style={{ width: '100%' }}
          value={value ? dayjs(`2000-01-01 ${String(value)}`) : null}
          onChange={(d) => onChange?.(d ? d.format('HH:mm') : null)}
        />
      );
    case 'reference':
    case 'references':
      return <ReferenceSelect field={field} {...props} />;
    case 'tags':
      return <TagsInput field={field} {...props} />;
    case 'password':
      return (
        <Input.Password
          {...passed}
          value={textOf(value)}
          onChange={onChange}
          autoComplete="new-password"
          placeholder={placeholder}
        />
      );
    case 'image':
    case 'images':
      return (
        <Upload
          {...passed}
          value={urlsOf(value)}
          onChange={onChange}
          accept={field.upload?.accept}
          maxSizeKb={field.upload?.maxSizeKb}
          multiple={field.kind === 'images'}
        />
      );
    default:
      return (
        <Input {...passed} value={textOf(value)} onChange={onChange} allowClear placeholder={placeholder} />
      );
  }
}

/**
 * An enumeration's value as staff read it: its label, as a coloured tag when the contract gives the
 * option a colour (statuses of orders, invoices and leads), the value itself when unknown.
 */
export function OptionTag({ options, value }: { options: readonly Option[]; value: string }) {
  const option = options.find((o) => o.value === value);
  if (!option) return value;
  return option.color ? <Tag color={option.color}>{option.label}</Tag> : option.label;
}

/** A field's value as a list shows it, references by their options' names (the field's list endpoint). */
export function ReferenceCell({ field, value }: { field: Field; value: unknown }) {
  const options = useListOptions(
    field.kind === 'reference' || field.kind === 'references' ? field.listEndpoint : undefined,
  );
  const labels = useMemo(() => new Map(options.data?.map((o) => [o.value, o.label])), [options.data]);
  return <FieldCell field={field} value={value} labels={labels} />;
}

/** A referenced record's name, `#id` when its list does not name it. */
const referenceName = (id: unknown, labels?: Map<number, string>) =>
  (typeof id === 'number' ? labels?.get(id) : undefined) ?? `#${String(id)}`;
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The table cell of one field. */
export function FieldCell({
  field,
  value,
  labels,
}: {
  field: Field;
  value: unknown;
  labels?: Map<number, string>;
}): ReactNode {
  if (value === null || value === undefined || value === '') return '—';
  switch (field.kind) {
    case 'money':
      return yuan(value);
    case 'percent':
      return typeof value === 'number' ? formatPercent(value) : '—';
    case 'boolean':
      return value ? <Tag color="green">是</Tag> : <Tag>否</Tag>;
    case 'enum':
      return <OptionTag options={field.options} value={String(value)} />;
    case 'datetime':
      return formatTime(String(value));
    case 'image':
      return <img src={String(value)} alt={field.label} className="resource-thumb" />;
    case 'images': {
      // A gallery listed in a table shows its first picture (the cover).
      const [cover] = listOf(value);
      return cover ? <img src={String(cover)} alt={field.label} className="resource-thumb" /> : '—';
    }
    case 'reference':
      return referenceName(value, labels);
    case 'references':
      return (
        listOf(value)
          .map((id) => referenceName(id, labels))
          .join('、') || '—'
      );
    case 'tags':
      return listOf(value).join('、') || '—';
    default:
      return String(value);
  }
}

/** One antd rule that runs the field's zod schema, so the form says what the server would. */
export function schemaRule(field: Field): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = field.schema.safeParse(value === '' ? undefined : value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? `${field.label}不正确`);
    },
  };
}
