import { useState } from 'react';
import { App, Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatYuan, type Field, optionLabel } from '@cowork/contract';
import { companyEndpoints, type CompanyOption } from '@cowork/contract/resources/company';
import {
  invoicePaths,
  TAX_NO_PATTERN,
  taxNoMessages,
  type InvoiceDetail,
  type InvoiceOrder,
  type InvoiceResource,
} from '@cowork/contract/resources/invoice';
import { orderKindOptions } from '@cowork/contract/resources/order';
import { FieldInput, schemaRule } from '../resource/field-input.tsx';
import { EditDrawer } from '../resource/page-parts.tsx';
import { useKeptForm } from '../../lib/use-kept-form.ts';
import { api } from '../../lib/request.ts';
import { rules } from '../../lib/rules.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { textOf } from '../../lib/values.ts';

/** The label of an order option: number, product and what was paid. */
const orderLabel = (o: InvoiceOrder) =>
  `${o.orderNo} · ${o.productName ?? optionLabel(orderKindOptions, o.kind)} · ${formatYuan(o.paidFen)}`;

/** A field's form item with the same check the server runs. */
function FieldItem({
  resource,
  name,
  extra,
}: {
  resource: InvoiceResource;
  name: keyof InvoiceResource['fields'];
  extra?: string;
}) {
  const f: Field = resource.fields[name];
  return (
    <Form.Item
      name={name}
      label={f.label}
      extra={extra}
      required={!f.schema.safeParse(undefined).success}
      rules={[schemaRule(f)]}
    >
      <FieldInput field={f} />
    </Form.Item>
  );
}

/**
 * 从企业填入: a company picked fills the title as a company's, with its invoice title (its name when
 * it has none) and tax number. Only a help to typing: the request keeps no link to the company.
 */
function CompanyPrefill({ onPick }: { onPick: (picked: CompanyOption) => void }) {
  const companies = useQuery({
    queryKey: ['list', companyEndpoints.list],
    queryFn: () => api.get<CompanyOption[]>(companyEndpoints.list),
    staleTime: 60_000,
  });
  return (
    <Form.Item label="从企业填入" extra="选择企业后自动填入发票抬头和税号，仍可修改">
      <Select
        aria-label="从企业填入"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        loading={companies.isFetching}
        placeholder="选择企业"
        options={companies.data?.map(({ value, label }) => ({ value, label }))}
        onChange={(id: number | undefined) => {
          const picked = companies.data?.find((c) => c.value === id);
          if (picked) onPick(picked);
        }}
      />
    </Form.Item>
  );
}

/** 登记开票申请: pick the member's paid orders, the amount follows what they paid. */
export function SaveDrawer({
  resource,
  open,
  onClose,
  onSaved,
  onReopen,
}: {
  resource: InvoiceResource;
  open: boolean;
  onClose: () => void;
  onSaved: (id: number) => void;
  /** Opens the drawer again after an expired session reloaded the page, with what was typed. */
  onReopen: () => void;
}) {
  const { message } = App.useApp();
  const paths = invoicePaths(resource);
  const [form] = Form.useForm();
  const prefill = (picked: CompanyOption) => {
    form.setFieldsValue({
      titleType: 'company',
      title: picked.invoiceTitle || picked.label,
      taxNo: picked.taxNo ?? undefined,
    });
    if (!picked.taxNo) message.info(`企业“${picked.label}”还没有填写税号，请手动填写，或先在“企业”中补充`);
  };
  const [phone, setPhone] = useState('');
  useKeptForm(
    `invoice-save:${resource.key}`,
    open,
    () => ({ context: null, values: form.getFieldsValue(true) }),
    ({ values }) => {
      form.setFieldsValue(values);
      if (typeof values.memberPhone === 'string') setPhone(values.memberPhone);
      onReopen();
    },
  );
  const titleType = textOf(Form.useWatch('titleType', form));
  const options = useQuery({
    queryKey: [resource.key, 'invoiceable-orders', phone],
    queryFn: () => api.get<InvoiceOrder[]>(paths.invoiceableOrders, { memberPhone: phone }),
    enabled: /^1\d{10}$/.test(phone),
  });
  const save = useSubmit({
    mutationFn: (values: Record<string, unknown>) => {
      const { memberPhone: _phone, ...body } = values;
      return api.post<InvoiceDetail>(paths.save, body);
    },
    onSuccess: (saved) => {
      message.success(
        `开票申请已登记，共 ${saved.orderNos.length} 个订单，金额 ${formatYuan(saved.amountFen)}，请在开具后点击“开票”上传发票`,
      );
      onSaved(saved.id);
    },
  });
  const paidTotal = (orderNos: string[]) =>
    orderNos.reduce((sum, no) => sum + (options.data?.find((o) => o.orderNo === no)?.paidFen ?? 0), 0);

  return (
    <EditDrawer title="登记开票申请" open={open} saving={save.isPending} onClose={onClose} form={form}>
      <Form
        form={form}
        name={`${resource.key}-save`}
        layout="vertical"
        preserve={false}
        initialValues={{ titleType: 'personal', invoiceType: 'normal' }}
        onFinish={(values: Record<string, unknown>) => save.mutate(values)}
      >
        <Form.Item
          name="memberPhone"
          label="会员手机号"
          rules={rules.phone}
          extra="输入会员手机号后，可选择其已支付、未开票的订单"
        >
          <Input
            allowClear
            maxLength={11}
            placeholder="请输入会员手机号"
            onChange={(e) => setPhone(e.target.value.trim())}
          />
        </Form.Item>
        <Form.Item
          name="orderNos"
          label="订单号"
          required
          rules={[schemaRule(resource.fields.orderNos)]}
          extra={
            options.data && options.data.length === 0
              ? '该会员没有可开票的订单（须为已支付或已使用且未开票）'
              : undefined
          }
        >
          <Select
            mode="multiple"
            allowClear
            loading={options.isFetching}
            placeholder="请选择要开票的订单"
            notFoundContent={/^1\d{10}$/.test(phone) ? '该会员没有可开票的订单' : '请先在上方输入会员手机号'}
            options={options.data?.map((o) => ({
              value: o.orderNo,
              label: orderLabel(o),
              title: orderLabel(o),
            }))}
            onChange={(orderNos: string[]) =>
              form.setFieldValue('amountFen', paidTotal(orderNos) || undefined)
            }
          />
        </Form.Item>
        <CompanyPrefill onPick={prefill} />
        <FieldItem resource={resource} name="titleType" />
        <FieldItem resource={resource} name="title" />
        {titleType === 'company' && (
          <Form.Item
            name="taxNo"
            label="税号"
            required
            extra="统一社会信用代码为 18 位大写字母或数字"
            rules={[
              { required: true, whitespace: true, message: taxNoMessages.required },
              { pattern: TAX_NO_PATTERN, message: taxNoMessages.invalid },
            ]}
          >
            <Input allowClear maxLength={20} placeholder="请输入税号" />
          </Form.Item>
        )}
        <Form.Item
          name="invoiceType"
          label="发票类型"
          required
          dependencies={['titleType']}
          rules={[
            schemaRule(resource.fields.invoiceType),
            {
              validator: async (_rule, value: unknown) => {
                if (value === 'special' && form.getFieldValue('titleType') !== 'company')
                  throw new Error(taxNoMessages.specialNeedsCompany);
              },
            },
          ]}
        >
          <FieldInput field={resource.fields.invoiceType} />
        </Form.Item>
        <FieldItem resource={resource} name="amountFen" extra="默认为所选订单的实付合计，不能超过该金额" />
        <Form.Item name="email" label="接收邮箱" rules={rules.optionalEmail}>
          <Input allowClear placeholder="请输入接收电子发票的邮箱" />
        </Form.Item>
        <FieldItem resource={resource} name="remark" />
      </Form>
    </EditDrawer>
  );
}
