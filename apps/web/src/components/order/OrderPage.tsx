/**
 * One screen for any order resource: the declaration's search form and table (ResourcePage: order
 * number, member phone, building, status, pay method, date range), a detail drawer with the product
 * as sold, the amounts, the card and the status timeline, buttons for the moves the order's status
 * allows, and the referrer phone edit.
 *
 * @example export default function MemberOrderPage() { return <OrderPage resource={userCardOrder} />; }
 */
import { lazy, Suspense, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Segmented,
  Skeleton,
  Space,
  Table,
  Timeline,
} from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { formatYuan, resourcePermissions, optionLabel } from '@cowork/contract';
import {
  orderActionPermission,
  orderActions,
  orderKindOptions,
  orderPaths,
  orderStatusLabel,
  type CardBooking,
  type OrderAction,
  type OrderDetail,
  type OrderResource,
  orderStates,
  orderStatusOptions,
} from '@cowork/contract/resources/order';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { ExportButton } from '../ExportButton.tsx';
import { rules } from '../../lib/rules.ts';
import { usePermission } from '../PermissionGate.tsx';
import { ResourcePage } from '../resource/ResourcePage.tsx';
import { FieldCell, OptionTag } from '../resource/field-input.tsx';
import { ResourceShow } from '../resource/ResourceShow.tsx';
import { CreateOrderDrawer, type BookingPrefill } from './CreateOrderDrawer.tsx';
import { ProductSnapshot } from './ProductSnapshot.tsx';
import './order.css';
import { useSubmit } from '../../lib/use-submit.ts';

/** A timeline dot has no 'default' colour: the tag's grey is 'gray' there. */
const timelineColor = (color: string | undefined) => (color === 'default' ? 'gray' : color);

export function OrderStatusTag({ status }: { status: string }) {
  return <OptionTag options={orderStatusOptions} value={status} />;
}

/** Asks before a move; cancel and refund also ask why (kept in the timeline and the audit log). */
function MoveDialog({
  action,
  order,
  onDone,
  onClose,
  url,
}: {
  action: OrderAction | null;
  order: OrderDetail;
  url: (action: OrderAction) => string;
  onDone: () => void;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason?: string }>();
  const needsReason = action === 'cancel' || action === 'refund';
  const move = useSubmit({
    mutationFn: (reason: string | undefined) => api.put(url(action!), { id: order.id, reason }),
    onSuccess: () => {
      message.success(`订单已${orderStatusLabel(orderActions[action!].to).replace(/^已/, '')}`);
      onDone();
    },
  });
  if (!action) return null;
  return (
    <Modal
      open
      title={`${orderActions[action].label}`}
      okText={orderActions[action].confirm}
      cancelText="取消"
      okButtonProps={{ danger: needsReason, loading: move.isPending }}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <p>
        确定将订单 {order.orderNo} 从「{orderStatusLabel(order.status)}」改为「
        {orderStatusLabel(orderActions[action].to)}」吗？
      </p>
      <Form form={form} layout="vertical" onFinish={(v) => move.mutate(v.reason?.trim() || undefined)}>
        {needsReason && (
          <Form.Item
            name="reason"
            label="原因"
            rules={[
              { required: true, whitespace: true, message: '请填写原因' },
              { max: 200, message: '原因最多 200 个字符，请删减后重试' },
            ]}
          >
            <Input.TextArea rows={3} placeholder="请填写原因，将记入订单状态记录" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

function ReferrerDialog({
  order,
  url,
  onDone,
  onClose,
}: {
  order: OrderDetail | null;
  url: string;
  onDone: () => void;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ referrerPhone: string }>();
  const save = useSubmit({
    mutationFn: (referrerPhone: string) => api.put(url, { id: order!.id, referrerPhone }),
    onSuccess: () => {
      message.success('推荐人手机号已保存');
      onDone();
    },
  });
  if (!order) return null;
  return (
    <Modal
      open
      title="修改推荐人手机号"
      okText="保存"
      cancelText="取消"
      okButtonProps={{ loading: save.isPending }}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ referrerPhone: order.referrerPhone ?? '' }}
        onFinish={(v) => save.mutate(v.referrerPhone.trim())}
      >
        <Form.Item name="referrerPhone" label="推荐人手机号" rules={rules.phone}>
          <Input allowClear placeholder="请输入推荐人手机号" maxLength={11} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** `2026-11-22 10:00–12:00` in the business time zone (the end's day named only when it differs). */
export function bookingPeriod(startAt: unknown, endAt: unknown): string {
  if (typeof startAt !== 'string' || typeof endAt !== 'string') return '—';
  const [start, end] = [formatTime(startAt), formatTime(endAt)];
  const time = (t: string) => t.slice(0, 16);
  return `${time(start)}–${end.slice(0, 10) === start.slice(0, 10) ? time(end).slice(11) : time(end)}`;
}

const kindLabel = (kind: string) => optionLabel(orderKindOptions, kind);

/** The bookings a meeting card paid, so staff see what its balance went to and what a refund gave back. */
function CardBookings({ bookings }: { bookings: CardBooking[] }) {
  return (
    <div>
      <h4 className="order-timeline-title">该卡支付的预订</h4>
      <Table<CardBooking>
        aria-label="该卡支付的预订"
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={bookings}
        locale={{ emptyText: '该卡还没有支付过预订' }}
        columns={[
          { title: '订单号', dataIndex: 'orderNo' },
          { title: '场地', render: (_, b) => `${kindLabel(b.kind)} · ${b.productName ?? '—'}` },
          { title: '预订时段', render: (_, b) => bookingPeriod(b.startAt, b.endAt) },
          { title: '金额', dataIndex: 'paidFen', render: (fen: number) => formatYuan(fen) },
          {
            title: '状态',
            dataIndex: 'status',
            render: (status: string) => <OrderStatusTag status={status} />,
          },
        ]}
      />
    </div>
  );
}

function OrderDrawer({
  resource,
  id,
  onClose,
}: {
  resource: OrderResource;
  id: number | null;
  onClose: () => void;
}) {
  const paths = orderPaths(resource);
  const queryClient = useQueryClient();
  const { can } = usePermission();
  // Read-only kinds (airport) have no moves and no referrer edit on the server either.
  const canEdit = !resource.readOnly && can([resourcePermissions(resource).edit]);
  // Each move has its own code: 前台 may 确认支付 and not 退款.
  const canMove = (action: OrderAction) =>
    !resource.readOnly && can([orderActionPermission(resource, action)]);
  const [moving, setMoving] = useState<OrderAction | null>(null);
  const [editingReferrer, setEditingReferrer] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [resource.key] });

  return (
    <ResourceShow<OrderDetail, OrderAction>
      resource={resource}
      detailPath={paths.detail}
      id={id}
      onClose={onClose}
      moves={{ states: orderStates, may: canMove, onMove: setMoving }}
    >
      {(order) => {
        const cell = (key: keyof OrderResource['fields']) => (
          <FieldCell field={resource.fields[key]} value={Reflect.get(order, key)} />
        );
        return (
          <>
            <Descriptions title="订单信息" column={2} bordered size="small">
              <Descriptions.Item label="订单号" span={2}>
                {order.orderNo}
              </Descriptions.Item>
              <Descriptions.Item label="订单状态">
                <OrderStatusTag status={order.status} />
              </Descriptions.Item>
              <Descriptions.Item label="支付方式">{cell('payMethod')}</Descriptions.Item>
              <Descriptions.Item label="会员手机号">{cell('memberPhone')}</Descriptions.Item>
              {resource.booking && (
                <Descriptions.Item label="预订时段" span={2}>
                  {bookingPeriod(order.startAt, order.endAt)}
                </Descriptions.Item>
              )}
              {order.paidByCard && (
                <Descriptions.Item label="支付会议卡" span={2}>
                  {order.paidByCard.cardNo ?? '—'}（会议卡订单 {order.paidByCard.orderNo}）
                </Descriptions.Item>
              )}
              <Descriptions.Item label="推荐人手机号">
                <Space size={4}>
                  {cell('referrerPhone')}
                  {canEdit && (
                    <Button type="link" size="small" onClick={() => setEditingReferrer(true)}>
                      修改
                    </Button>
                  )}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label="订单金额">{cell('amountFen')}</Descriptions.Item>
              <Descriptions.Item label="优惠金额">{cell('discountFen')}</Descriptions.Item>
              <Descriptions.Item label="实付金额">{cell('paidFen')}</Descriptions.Item>
              <Descriptions.Item label="数量">{cell('quantity')}</Descriptions.Item>
              {/* Bookings show their period above; a seat order its start and end here. */}
              {!resource.booking && order.startAt && (
                <Descriptions.Item label="开始时间">{cell('startAt')}</Descriptions.Item>
              )}
              {!resource.booking && order.endAt && (
                <Descriptions.Item label="结束时间">{cell('endAt')}</Descriptions.Item>
              )}
              <Descriptions.Item label="下单时间">{cell('createdAt')}</Descriptions.Item>
              <Descriptions.Item label="支付时间">{cell('paidAt')}</Descriptions.Item>
              {order.usedAt && <Descriptions.Item label="使用时间">{cell('usedAt')}</Descriptions.Item>}
              {order.cancelledAt && (
                <Descriptions.Item label="取消时间">{cell('cancelledAt')}</Descriptions.Item>
              )}
              {order.refundedAt && (
                <Descriptions.Item label="退款时间">{cell('refundedAt')}</Descriptions.Item>
              )}
              <Descriptions.Item label="备注" span={2}>
                {cell('remark')}
              </Descriptions.Item>
            </Descriptions>
            {resource.card && (
              <Descriptions title="卡片" column={2} bordered size="small">
                <Descriptions.Item label="卡号" span={2}>
                  {cell('cardNo')}
                </Descriptions.Item>
                <Descriptions.Item label="生效时间">{cell('validFrom')}</Descriptions.Item>
                <Descriptions.Item label="到期时间">{cell('validTo')}</Descriptions.Item>
                {order.balanceFen !== null && (
                  <Descriptions.Item label="余额">{cell('balanceFen')}</Descriptions.Item>
                )}
              </Descriptions>
            )}
            {order.cardBookings && <CardBookings bookings={order.cardBookings} />}
            <ProductSnapshot snapshot={order.productSnapshot} />
            <div>
              <h4 className="order-timeline-title">状态记录</h4>
              {order.events.length === 0 ? (
                <Empty description="暂无状态记录" />
              ) : (
                <Timeline
                  aria-label="状态记录"
                  items={order.events.map((event) => ({
                    key: event.id,
                    color: timelineColor(orderStates.colorOf(event.toStatus)),
                    content: (
                      <div>
                        <div>
                          {event.fromStatus
                            ? `${orderStatusLabel(event.fromStatus)} → ${orderStatusLabel(event.toStatus)}`
                            : `下单（${orderStatusLabel(event.toStatus)}）`}
                        </div>
                        <div className="order-timeline-meta">
                          {formatTime(event.at)} · {event.actorName ?? '会员/系统'}
                          {event.reason ? ` · ${event.reason}` : ''}
                        </div>
                      </div>
                    ),
                  }))}
                />
              )}
            </div>
            <MoveDialog
              action={moving}
              order={order}
              url={(action) => paths[action]}
              onClose={() => setMoving(null)}
              onDone={() => {
                setMoving(null);
                void refresh();
              }}
            />
            <ReferrerDialog
              order={editingReferrer ? order : null}
              url={paths.editReferrerPhone}
              onClose={() => setEditingReferrer(false)}
              onDone={() => {
                setEditingReferrer(false);
                void refresh();
              }}
            />
          </>
        );
      }}
    </ResourceShow>
  );
}

// The booking calendar is its own chunk: the list is what most visits need.
const BookingCalendar = lazy(() => import('./BookingCalendar.tsx'));

export function OrderPage({ resource }: { resource: OrderResource }) {
  const [viewing, setViewing] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const [prefill, setPrefill] = useState<BookingPrefill>();
  const [view, setView] = useState<'list' | 'calendar'>('list');
  const { can } = usePermission();
  // Recording a sale changes orders: it needs the edit code, like the server's save route.
  const canCreate = resource.save && can([resourcePermissions(resource).edit]);
  const withCalendar = resource.booking && canCreate;
  return (
    <>
      {withCalendar && (
        <Segmented
          className="order-view-switch"
          value={view}
          onChange={setView}
          options={[
            { value: 'list', label: '列表' },
            { value: 'calendar', label: '预订日历' },
          ]}
        />
      )}
      {withCalendar && view === 'calendar' ? (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
          <BookingCalendar
            resource={resource}
            onBook={(pick) => {
              setPrefill(pick);
              setCreating(true);
            }}
          />
        </Suspense>
      ) : (
        <ResourcePage
          resource={resource}
          // Whoever sees the list may export it: both need the view permission.
          toolbar={(filters) => (
            <>
              {canCreate && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
                  新建订单
                </Button>
              )}
              <ExportButton path={orderPaths(resource).export} filters={filters} label={resource.label} />
            </>
          )}
          rowActions={(record) => (
            <Button type="link" size="small" onClick={() => setViewing(record.id)}>
              详情
            </Button>
          )}
        />
      )}
      <OrderDrawer resource={resource} id={viewing} onClose={() => setViewing(null)} />
      {resource.save && (
        <CreateOrderDrawer
          resource={resource}
          open={creating}
          prefill={prefill}
          onClose={() => {
            setCreating(false);
            setPrefill(undefined);
          }}
          onReopen={() => setCreating(true)}
        />
      )}
    </>
  );
}

export default OrderPage;
