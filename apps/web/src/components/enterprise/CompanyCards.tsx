/**
 * 企业会议卡: a company's meeting-card balance its staff spend on meeting rooms and venues, each
 * within a monthly cap when one is set. The list of cards (the whole of 企业会议卡, or one company's
 * in its 详情), each picking its company and who may pay with it from the company's staff list (all
 * active staff, chosen departments, chosen people); for each a drawer with this month's spending per
 * member, 充值, and the ledger of every balance change.
 */
import { useState } from 'react';
import { App, Button, Card, Descriptions, Drawer, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { field, formatYuan, resourcePermissions, type Page, optionLabel } from '@cowork/contract';
import {
  companyCard,
  companyCardEndpoints,
  companyCardMessages,
  ledgerKindOptions,
  type CompanyCardLedgerRecord,
  type CompanyCardSpending,
} from '@cowork/contract/resources/company-card';
import { usePermission } from '../PermissionGate.tsx';
import { FieldInput, schemaRule } from '../resource/field-input.tsx';
import { ResourcePage, type ResourceRecord } from '../resource/ResourcePage.tsx';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { DepartmentSelect, StaffPhoneSelect } from './StaffPickers.tsx';

type CardRecord = ResourceRecord & {
  cardNo: string;
  companyName: string;
  balanceFen: number;
  monthlyCapFen: number | null;
  validUntil: string;
};
type CardDetail = CardRecord & { spending: CompanyCardSpending[] };

const topUpAmount = field.money('充值金额', { min: 1 });
const kindLabel = (kind: string) => optionLabel(ledgerKindOptions, kind);

/** The cards, all of them or one company's (its id fixes the company of new cards). */
export function CompanyCards({ companyId }: { companyId?: number }) {
  const [open, setOpen] = useState<CardRecord>();
  return (
    <>
      <ResourcePage
        resource={companyCard}
        inAddress={companyId === undefined}
        fixedFilters={companyId === undefined ? {} : { companyId: String(companyId) }}
        // The company is its reference (a select to search by, its name in the list); the copy of
        // its name kept for older API answers is not shown twice.
        hiddenFields={['companyName']}
        inputs={{
          departments: <DepartmentSelect fixedCompanyId={companyId} />,
          memberPhones: <StaffPhoneSelect fixedCompanyId={companyId} />,
        }}
        cells={{
          status: (value) => (value === 'enabled' ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
        }}
        rowActions={(record) => (
          <Button type="link" size="small" onClick={() => setOpen(record as CardRecord)}>
            流水与充值
          </Button>
        )}
      />
      {open && <CardDrawer id={open.id} onClose={() => setOpen(undefined)} />}
    </>
  );
}

function CardDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const { can } = usePermission();
  const detail = useQuery({
    queryKey: [companyCard.key, 'detail', id],
    queryFn: () => api.get<CardDetail>(`${companyCardEndpoints.detail}/${id}`),
  });
  const card = detail.data;
  return (
    <Drawer open size="large" title={card ? `企业会议卡：${card.cardNo}` : '企业会议卡'} onClose={onClose}>
      {card && (
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          <Descriptions
            size="small"
            column={2}
            items={[
              { key: 'company', label: '企业名称', children: card.companyName },
              { key: 'balance', label: '余额', children: formatYuan(card.balanceFen) },
              {
                key: 'cap',
                label: '每人每月限额',
                children: card.monthlyCapFen === null ? '不限' : formatYuan(card.monthlyCapFen),
              },
              { key: 'until', label: '有效期至', children: formatTime(card.validUntil) },
            ]}
          />
          <Card size="small" title="本月员工使用情况">
            <Table<CompanyCardSpending>
              rowKey="phone"
              size="small"
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              dataSource={card.spending}
              locale={{ emptyText: '还没有可用员工：请在企业中添加员工，或编辑卡片的成员范围' }}
              columns={[
                { title: '手机号', dataIndex: 'phone' },
                { title: '本月已用', dataIndex: 'spentFen', render: (v: number) => formatYuan(v) },
                {
                  title: '本月剩余额度',
                  dataIndex: 'leftFen',
                  render: (v: number | null) => (v === null ? '不限' : formatYuan(v)),
                },
              ]}
            />
          </Card>
          {can([resourcePermissions(companyCard).edit]) && <TopUp id={id} />}
          <Ledger id={id} />
        </Space>
      )}
    </Drawer>
  );
}

function TopUp({ id }: { id: number }) {
  const [form] = Form.useForm<{ amountFen: number; remark: string }>();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const topUp = useSubmit({
    mutationFn: (v: { amountFen: number; remark: string }) =>
      api.post<{ balanceFen: number }>(companyCardEndpoints.topUp, { id, ...v, remark: v.remark.trim() }),
    onSuccess: async ({ balanceFen }, v) => {
      message.success(companyCardMessages.toppedUp(v.amountFen, balanceFen));
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: [companyCard.key] });
    },
  });
  return (
    <Card size="small" title="充值">
      <Form form={form} name="company-card-top-up" layout="inline" onFinish={(v) => topUp.mutate(v)}>
        <Form.Item name="amountFen" label={topUpAmount.label} rules={[schemaRule(topUpAmount)]}>
          <FieldInput field={topUpAmount} />
        </Form.Item>
        <Form.Item
          name="remark"
          label="充值备注"
          rules={[
            { required: true, whitespace: true, message: '请填写充值备注' },
            { max: 200, message: '充值备注最多 200 个字符' },
          ]}
        >
          <Input placeholder="如：2026 年 12 月预算" style={{ width: 220 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={topUp.isPending}>
            充值
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}

function Ledger({ id }: { id: number }) {
  const [current, setCurrent] = useState(1);
  const ledger = useQuery({
    queryKey: [companyCard.key, 'ledger', id, current],
    queryFn: () =>
      api.get<Page<CompanyCardLedgerRecord>>(companyCardEndpoints.ledgerPage, { id, current, size: 10 }),
  });
  return (
    <Card size="small" title="流水">
      <Typography.Paragraph type="secondary">
        每一笔余额变动都记在这里，余额等于流水合计。
      </Typography.Paragraph>
      <Table<CompanyCardLedgerRecord>
        rowKey="id"
        size="small"
        loading={ledger.isLoading}
        dataSource={ledger.data?.records ?? []}
        pagination={{
          current,
          pageSize: 10,
          total: ledger.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setCurrent,
        }}
        columns={[
          { title: '时间', dataIndex: 'at', width: 170, render: (v: string) => formatTime(v) },
          { title: '类型', dataIndex: 'kind', render: (v: string) => kindLabel(v) },
          {
            title: '金额',
            dataIndex: 'amountFen',
            render: (v: number) => (
              <Typography.Text type={v < 0 ? 'danger' : 'success'}>
                {v < 0 ? `-${formatYuan(-v)}` : `+${formatYuan(v)}`}
              </Typography.Text>
            ),
          },
          { title: '变动后余额', dataIndex: 'balanceAfterFen', render: (v: number) => formatYuan(v) },
          { title: '订单号', dataIndex: 'orderNo', render: (v: string | null) => v ?? '—' },
          { title: '员工手机号', dataIndex: 'memberPhone', render: (v: string | null) => v ?? '—' },
          { title: '备注', dataIndex: 'remark', render: (v: string | null) => v ?? '—' },
          { title: '操作人', dataIndex: 'byName', render: (v: string | null) => v ?? '—' },
        ]}
      />
    </Card>
  );
}
