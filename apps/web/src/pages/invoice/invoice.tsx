/**
 * 经营发票 (/invoice/jingying) and 机场贵宾厅发票 (/invoice/airport): one page, the route decides the
 * resource. The list and its filters come from the declaration (ResourcePage); this page adds the
 * detail drawer (orders covered, status, file), 登记开票申请 (a member's paid orders, the title and
 * an amount defaulting to what they paid), 开票 (invoice number and PDF) and 驳回 (reason).
 */
import { useState } from 'react';
import { useLocation } from 'react-router';
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Descriptions, Form, Input, Modal, Select, Table } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatYuan, resourcePermissions, type Field, optionLabel } from '@cowork/contract';
import {
  invoice,
  invoiceOperationPermission,
  invoicePaths,
  INVOICE_NO_PATTERN,
  TAX_NO_PATTERN,
  taxNoMessages,
  tripartiteInvoice,
  type InvoiceDetail,
  type InvoiceOrder,
  type InvoiceResource,
  invoiceStatusOptions,
  invoiceStates,
  type InvoiceMove,
} from '@cowork/contract/resources/invoice';
import { orderKindOptions } from '@cowork/contract/resources/order';
import { OrderStatusTag } from '../../components/order/OrderPage.tsx';
import { ExportButton } from '../../components/ExportButton.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { FieldCell, FieldInput, OptionTag, schemaRule } from '../../components/resource/field-input.tsx';
import { EditDrawer } from '../../components/resource/page-parts.tsx';
import { MoveButtons } from '../../components/resource/MoveButtons.tsx';
import { ResourceShow } from '../../components/resource/ResourceShow.tsx';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';
import { Upload } from '../../components/Upload.tsx';
import { useKeptForm } from '../../lib/use-kept-form.ts';
import { api } from '../../lib/request.ts';
import { rules } from '../../lib/rules.ts';
import { useSubmit } from '../../lib/use-submit.ts';

const kindLabel = (kind: string) => optionLabel(orderKindOptions, kind);

/** The label of an order option: number, product and what was paid. */
const orderLabel = (o: InvoiceOrder) =>
  `${o.orderNo} · ${o.productName ?? kindLabel(o.kind)} · ${formatYuan(o.paidFen)}`;

type Action = InvoiceMove;

/** 开票 and 驳回 take the issue code, 作废 its own. */
const mayMove = (rights: InvoiceRights) => (move: Action) => (move === 'void' ? rights.void : rights.issue);
type Dialog = { kind: 'detail' | Action; id: number } | { kind: 'save' } | null;

/** A field's form item with the same check the server runs. */
function FieldItem({ resource, name, extra }: { resource: InvoiceResource; name: string; extra?: string }) {
  const f = resource.fields[name as keyof InvoiceResource['fields']] as Field;
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

/** 登记开票申请: pick the member's paid orders, the amount follows what they paid. */
function SaveDrawer({
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
  const [phone, setPhone] = useState('');
  useKeptForm(
    `invoice-save:${resource.key}`,
    open,
    () => ({ context: null, values: form.getFieldsValue(true) as Record<string, unknown> }),
    ({ values }) => {
      form.setFieldsValue(values);
      if (typeof values.memberPhone === 'string') setPhone(values.memberPhone);
      onReopen();
    },
  );
  const titleType = Form.useWatch('titleType', form) as string | undefined;
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
          rules={[schemaRule(resource.fields.orderNos as Field)]}
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
            schemaRule(resource.fields.invoiceType as Field),
            {
              validator: async (_rule, value: unknown) => {
                if (value === 'special' && form.getFieldValue('titleType') !== 'company')
                  throw new Error(taxNoMessages.specialNeedsCompany);
              },
            },
          ]}
        >
          <FieldInput field={resource.fields.invoiceType as Field} />
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

/** 开票: the invoice number and the PDF of the issued invoice. */
function IssueDrawer({
  resource,
  id,
  onClose,
  onDone,
}: {
  resource: InvoiceResource;
  id: number | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const issue = useSubmit({
    mutationFn: (values: Record<string, unknown>) => api.put(invoicePaths(resource).issue, { ...values, id }),
    onSuccess: () => {
      message.success('已开票，发票号码与文件已保存');
      onDone();
    },
  });
  return (
    <EditDrawer title="开票" open={id !== null} saving={issue.isPending} onClose={onClose} form={form}>
      <Form
        form={form}
        name={`${resource.key}-issue`}
        layout="vertical"
        preserve={false}
        onFinish={(v) => issue.mutate(v)}
      >
        <Form.Item
          name="invoiceNo"
          label="发票号码"
          rules={[
            { required: true, whitespace: true, message: '请填写发票号码' },
            { pattern: INVOICE_NO_PATTERN, message: '发票号码须为 8–20 位数字或字母，请核对后重试' },
          ]}
        >
          <Input allowClear maxLength={20} placeholder="请输入发票号码" />
        </Form.Item>
        <Form.Item
          name="fileUrl"
          label="发票文件"
          rules={[{ required: true, message: '请上传发票 PDF 文件' }]}
          extra="仅支持 PDF 文件"
        >
          <Upload accept={['pdf']} />
        </Form.Item>
      </Form>
    </EditDrawer>
  );
}

/**
 * 驳回 a pending request, or 作废 an issued invoice (after its red-letter invoice): one endpoint,
 * worded for what the staff member is doing.
 */
function RejectDialog({
  resource,
  id,
  voiding,
  onClose,
  onDone,
}: {
  resource: InvoiceResource;
  id: number | null;
  voiding: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const verb = voiding ? '作废' : '驳回';
  const reject = useSubmit({
    mutationFn: (reason: string) => api.put(invoicePaths(resource).reject, { id, reason }),
    onSuccess: () => {
      message.success(
        voiding ? '发票已作废，所含订单可以退款或重新申请开票' : '开票申请已驳回，所含订单可重新申请开票',
      );
      onDone();
    },
  });
  if (id === null) return null;
  return (
    <Modal
      open
      title={voiding ? '作废发票' : '驳回开票申请'}
      okText={`确认${verb}`}
      cancelText="取消"
      okButtonProps={{ danger: true, loading: reject.isPending }}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => reject.mutate(v.reason.trim())}>
        <Form.Item
          name="reason"
          label={`${verb}原因`}
          extra={voiding ? '请先在税务系统开具红字发票，再在这里作废。' : undefined}
          rules={[
            { required: true, whitespace: true, message: `请填写${verb}原因` },
            { max: 200, message: `${verb}原因最多 200 个字符，请删减后重试` },
          ]}
        >
          <Input.TextArea
            rows={3}
            placeholder={voiding ? '如：会员退款，已开红字发票' : '请填写驳回原因，会员可据此修改后重新申请'}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** What the signed-in staff member may do with this kind of invoice. */
interface InvoiceRights {
  edit: boolean;
  issue: boolean;
  void: boolean;
}

function DetailDrawer({
  resource,
  id,
  can,
  onClose,
  onAction,
}: {
  resource: InvoiceResource;
  id: number | null;
  can: InvoiceRights;
  onClose: () => void;
  onAction: (kind: Action, id: number) => void;
}) {
  return (
    <ResourceShow<InvoiceDetail, Action>
      resource={resource}
      detailPath={invoicePaths(resource).detail}
      id={id}
      onClose={onClose}
      size={720}
      moves={{ states: invoiceStates, may: mayMove(can), onMove: (move) => onAction(move, id!) }}
    >
      {(item) => {
        const cell = (key: keyof InvoiceResource['fields']) => (
          <FieldCell field={resource.fields[key] as Field} value={item[key as keyof InvoiceDetail]} />
        );
        return (
          <>
            <Descriptions title="申请信息" column={2} bordered size="small">
              <Descriptions.Item label="开票状态">
                <OptionTag options={invoiceStatusOptions} value={item.status} />
              </Descriptions.Item>
              <Descriptions.Item label="订单类型">{cell('orderType')}</Descriptions.Item>
              <Descriptions.Item label="会员手机号">{cell('memberPhone')}</Descriptions.Item>
              <Descriptions.Item label="申请时间">{cell('createdAt')}</Descriptions.Item>
              <Descriptions.Item label="抬头类型">{cell('titleType')}</Descriptions.Item>
              <Descriptions.Item label="发票类型">{cell('invoiceType')}</Descriptions.Item>
              <Descriptions.Item label="发票抬头" span={2}>
                {cell('title')}
              </Descriptions.Item>
              {item.taxNo && (
                <Descriptions.Item label="税号" span={2}>
                  {cell('taxNo')}
                </Descriptions.Item>
              )}
              <Descriptions.Item label="开票金额">{cell('amountFen')}</Descriptions.Item>
              <Descriptions.Item label="接收邮箱">{cell('email')}</Descriptions.Item>
              <Descriptions.Item label="备注" span={2}>
                {cell('remark')}
              </Descriptions.Item>
            </Descriptions>
            {item.invoiceNo && (
              <Descriptions title="开票结果" column={2} bordered size="small">
                <Descriptions.Item label="发票号码">{cell('invoiceNo')}</Descriptions.Item>
                <Descriptions.Item label="开票时间">{cell('issuedAt')}</Descriptions.Item>
                <Descriptions.Item label="发票文件" span={2}>
                  {item.fileUrl ? (
                    <a href={item.fileUrl} target="_blank" rel="noreferrer">
                      查看发票 PDF
                    </a>
                  ) : (
                    '—'
                  )}
                </Descriptions.Item>
              </Descriptions>
            )}
            {(item.status === 'rejected' || item.status === 'voided') && (
              <Descriptions
                title={item.status === 'voided' ? '作废' : '驳回'}
                column={2}
                bordered
                size="small"
              >
                <Descriptions.Item label={item.status === 'voided' ? '作废原因' : '驳回原因'} span={2}>
                  {cell('rejectReason')}
                </Descriptions.Item>
                <Descriptions.Item label={item.status === 'voided' ? '作废时间' : '驳回时间'}>
                  {cell('rejectedAt')}
                </Descriptions.Item>
              </Descriptions>
            )}
            <Table<InvoiceOrder>
              aria-label="开票订单"
              title={() => '开票订单'}
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={item.orders}
              columns={[
                { key: 'orderNo', title: '订单号', dataIndex: 'orderNo' },
                { key: 'kind', title: '订单类型', dataIndex: 'kind', render: (v: string) => kindLabel(v) },
                {
                  key: 'productName',
                  title: '产品',
                  dataIndex: 'productName',
                  render: (v: string | null) => v ?? '—',
                },
                {
                  key: 'paidFen',
                  title: '实付金额',
                  dataIndex: 'paidFen',
                  render: (v: number) => formatYuan(v),
                },
                {
                  key: 'status',
                  title: '订单状态',
                  dataIndex: 'status',
                  render: (v: string) => <OrderStatusTag status={v} />,
                },
              ]}
            />
          </>
        );
      }}
    </ResourceShow>
  );
}

export default function InvoicePage() {
  const { pathname } = useLocation();
  const resource = pathname.replace(/\/$/, '') === '/invoice/airport' ? tripartiteInvoice : invoice;
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const rights: InvoiceRights = {
    edit: can([resourcePermissions(resource).edit]),
    issue: can([invoiceOperationPermission(resource, 'issue')]),
    void: can([invoiceOperationPermission(resource, 'void')]),
  };
  const [dialog, setDialog] = useState<Dialog>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [resource.key] });
  const done = () => {
    setDialog(null);
    void refresh();
  };
  const act = (kind: Action, id: number) => setDialog({ kind, id });

  return (
    <>
      <ResourcePage
        // The route decides the resource: a fresh page (search form, paging) per menu.
        key={resource.key}
        resource={resource}
        toolbar={(filters) => (
          <>
            {rights.edit && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'save' })}>
                登记开票申请
              </Button>
            )}
            <ExportButton path={invoicePaths(resource).export} filters={filters} label={resource.label} />
          </>
        )}
        rowActions={(record: ResourceRecord) => (
          <>
            <Button type="link" size="small" onClick={() => setViewing(record.id)}>
              详情
            </Button>
            <MoveButtons
              compact
              states={invoiceStates}
              status={String(record.status)}
              may={mayMove(rights)}
              onMove={(move) => act(move, record.id)}
            />
          </>
        )}
      />
      <DetailDrawer
        resource={resource}
        id={viewing}
        can={rights}
        onClose={() => setViewing(null)}
        onAction={act}
      />
      <SaveDrawer
        key={`${resource.key}-save`}
        resource={resource}
        open={dialog?.kind === 'save'}
        onClose={() => setDialog(null)}
        onSaved={done}
        onReopen={() => setDialog({ kind: 'save' })}
      />
      <IssueDrawer
        resource={resource}
        id={dialog?.kind === 'issue' ? dialog.id : null}
        onClose={() => setDialog(null)}
        onDone={done}
      />
      <RejectDialog
        resource={resource}
        id={dialog?.kind === 'reject' || dialog?.kind === 'void' ? dialog.id : null}
        voiding={dialog?.kind === 'void'}
        onClose={() => setDialog(null)}
        onDone={done}
      />
    </>
  );
}
