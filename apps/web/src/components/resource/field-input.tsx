/** The form input and the table cell of each field kind, shared by every resource page. */
import { useMemo, useRef, type ReactNode } from 'react';
import { App, DatePicker, Input, InputNumber, Select, Switch, Tag, TimePicker, type FormRule } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { formatPercent, formatYuan, type Field, type ListOption, type Option } from '@cowork/contract';
import { formatTime, fromBusinessTime, toBusinessTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { RichTextEditor } from '../RichTextEditor.tsx';
import { Upload, type UploadProps } from '../Upload.tsx';

/**
 * Free-text tags (楼层 8F、B1). Select's tags mode drops a tag that is typed again (it toggles it);
 * here a tag typed again stays, and the form says it is already there.
 */
function TagsInput({
  field,
  value,
  onChange,
  ...props
}: {
  field: Field;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const { message } = App.useApp();
  const typed = useRef('');
  const current = Array.isArray(value) ? (value as string[]) : [];
  return (
    <Select
      {...props}
      value={value as string[] | undefined}
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
    queryFn: () => api.get<ListOption[]>(endpoint!),
    enabled: Boolean(endpoint),
    staleTime: 60_000,
  });
}

function ReferenceSelect({
  field,
  ...props
}: {
  field: Field;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
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

/** The input of one field in the create/edit form (value and onChange come from Form.Item). */
export function FieldInput({
  field,
  ...props
}: {
  field: Field;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const placeholder = `请输入${field.label}`;
  switch (field.kind) {
    case 'textarea':
      return <Input.TextArea {...(props as object)} rows={4} placeholder={placeholder} />;
    case 'richtext':
      return <RichTextEditor {...(props as { value?: string; onChange?: (v: string) => void })} />;
    case 'integer':
      return (
        <InputNumber
          {...(props as object)}
          precision={0}
          style={{ width: '100%' }}
          placeholder={placeholder}
        />
      );
    case 'decimal':
      return <InputNumber {...(props as object)} style={{ width: '100%' }} placeholder={placeholder} />;
    case 'money':
      // Entered in yuan, stored in fen. The rest of the props (the id its label points at) pass on.
      return (
        <InputNumber
          {...(props as object)}
          value={typeof props.value === 'number' ? props.value / 100 : undefined}
          onChange={(v) => props.onChange?.(typeof v === 'number' ? Math.round(v * 100) : null)}
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
          id={(props as { id?: string }).id}
          value={typeof props.value === 'number' ? props.value / 100 : undefined}
          onChange={(v) => props.onChange?.(typeof v === 'number' ? Math.round(v * 100) : null)}
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
      return (
        <Switch id={(props as { id?: string }).id} checked={Boolean(props.value)} onChange={props.onChange} />
      );
    case 'enum':
      return (
        <Select
          {...(props as object)}
          placeholder={`请选择${field.label}`}
          options={field.options?.map((o) => ({ value: o.value, label: o.label }))}
        />
      );
    case 'date':
    case 'datetime':
      return (
        <DatePicker
          showTime={field.kind === 'datetime'}
          // A picked day counts at once; 确定 is not needed to keep it.
          needConfirm={false}
          style={{ width: '100%' }}
          value={fromBusinessTime(props.value, field.kind as 'date' | 'datetime')}
          onChange={(d) => props.onChange?.(toBusinessTime(d, field.kind as 'date' | 'datetime'))}
        />
      );
    case 'time':
      return (
        <TimePicker
          id={(props as { id?: string }).id}
          format="HH:mm"
          style={{ width: '100%' }}
          value={props.value ? dayjs(`2000-01-01 ${props.value as string}`) : null}
          onChange={(d) => props.onChange?.(d ? d.format('HH:mm') : null)}
        />
      );
    case 'reference':
    case 'references':
      return <ReferenceSelect field={field} {...props} />;
    case 'tags':
      return <TagsInput field={field} {...props} />;
    case 'password':
      return <Input.Password {...(props as object)} autoComplete="new-password" placeholder={placeholder} />;
    case 'image':
    case 'images':
      return (
        <Upload
          {...(props as Pick<UploadProps, 'value' | 'onChange' | 'id'>)}
          accept={field.upload?.accept}
          maxSizeKb={field.upload?.maxSizeKb}
          multiple={field.kind === 'images'}
        />
      );
    default:
      return <Input {...(props as object)} allowClear placeholder={placeholder} />;
  }
}

/** The table cell of one field. */
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
  const references = field.kind === 'reference' || field.kind === 'references';
  const options = useListOptions(references ? field.listEndpoint : undefined);
  const labels = useMemo(() => new Map(options.data?.map((o) => [o.value, o.label])), [options.data]);
  return <FieldCell field={field} value={value} labels={labels} />;
}

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
      return <OptionTag options={field.options ?? []} value={String(value)} />;
    case 'datetime':
      return formatTime(value as string);
    case 'image':
      return <img src={String(value)} alt={field.label} className="resource-thumb" />;
    case 'images': {
      // A gallery listed in a table shows its first picture (the cover).
      const [cover] = value as string[];
      return cover ? <img src={cover} alt={field.label} className="resource-thumb" /> : '—';
    }
    case 'reference':
      return labels?.get(value as number) ?? `#${String(value)}`;
    case 'references':
      return (value as number[]).map((id) => labels?.get(id) ?? `#${id}`).join('、') || '—';
    case 'tags':
      return (value as string[]).join('、') || '—';
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
