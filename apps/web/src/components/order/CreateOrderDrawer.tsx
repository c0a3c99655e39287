/**
 * 新建订单: a sale staff record at the desk (offline), for order resources with `save`. The member
 * by phone, the product among the published ones; a card order names the building it is sold in,
 * a booking its day and quarter-hour times within the room's opening hours, paid offline or from one
 * of the member's meeting cards or a 企业会议卡 listing them (team-card-sale/find-list-by-phone),
 * chosen from a list with their balances and monthly caps; a meeting card may be sold in a 会议卡活动.
 * The server checks everything again (overlap, hours, balance, cap, stock) and answers in Chinese;
 * its message shows as the toast.
 */
import { useEffect, useMemo } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { App, Button, DatePicker, Drawer, Form, Input, Radio, Select, Space, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  businessDay,
  businessInstant,
  formatYuan,
  PHONE_PATTERN,
  prefixes,
  toIso,
  type ListOption,
} from '@cowork/contract';
import {
  orderPaths,
  type CardActivityOption,
  type PayingCardOption,
  orderSaveLabels as labels,
  savePayMethodOptions,
  type OrderDetail,
  type OrderProductOption,
  type OrderResource,
} from '@cowork/contract/resources/order';
import { companyCardEndpoints } from '@cowork/contract/resources/company-card';
import { BOOKING_STEP_MINUTES } from '@cowork/contract/resources/station';
import { useKeptForm } from '../../lib/use-kept-form.ts';
import { api } from '../../lib/request.ts';
import { rules } from '../../lib/rules.ts';
import { useSubmit } from '../../lib/use-submit.ts';

/** A booking picked on the calendar: the room, the Beijing day (YYYY-MM-DD) and 'HH:mm' times. */
export interface BookingPrefill {
  productId: number;
  day: string;
  from: string;
  to: string;
}

interface Values {
  memberPhone: string;
  productId?: number;
  buildingId?: number;
  day?: Dayjs;
  from?: string;
  to?: string;
  payMethod: 'offline' | 'card';
  paid: boolean;
  cardNo?: string;
  activityId?: number;
  referrerPhone?: string;
  remark?: string;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Quarter hours from `first` to `last` (minutes of the day), as 'HH:mm'. */
function quarterHours(first: number, last: number): string[] {
  const times: string[] = [];
  const start = Math.ceil(first / BOOKING_STEP_MINUTES) * BOOKING_STEP_MINUTES;
  for (let m = start; m <= last; m += BOOKING_STEP_MINUTES) times.push(hhmm(m));
  return times;
}

/** Whether a typed time (14:30, 1430, 14) matches a quarter hour option. */
const timeMatches = (input: string, option?: { value?: unknown }) =>
  String(option?.value ?? '')
    .replace(':', '')
    .startsWith(input.replace(/[:：\s]/g, ''));

/** A wall-clock time on a day as ISO 8601 (the console's times are business time zone times). */
const businessIso = (day: Dayjs, time: string) => toIso(businessInstant(day.format('YYYY-MM-DD'), time));

/**
 * A card as 新建订单 offers it (the member's meeting cards and the company cards listing them):
 * usable here and covering the price, or greyed out saying why not.
 */
function cardOption(card: PayingCardOption, buildingId: number | undefined, priceFen: number | undefined) {
  const elsewhere =
    buildingId !== undefined && card.buildingIds !== null && !card.buildingIds.includes(buildingId);
  const short = priceFen !== undefined && card.balanceFen < priceFen;
  const capped = priceFen !== undefined && card.capLeftFen !== null && card.capLeftFen < priceFen;
  const why = elsewhere ? '（不能在该楼宇使用）' : short ? '（余额不足）' : capped ? '（超出本月限额）' : '';
  const cap = card.capLeftFen === null ? '' : ` · 本月可用 ${formatYuan(card.capLeftFen)}`;
  return {
    value: card.cardNo,
    label: `${card.cardNo} · ${card.productName} · 余额 ${formatYuan(card.balanceFen)}${cap} · 有效期至 ${card.validTo.slice(0, 10)}${why}`,
    disabled: elsewhere || short || capped,
  };
}

export function CreateOrderDrawer({
  resource,
  open,
  onClose,
  onReopen,
  prefill,
}: {
  resource: OrderResource;
  open: boolean;
  onClose: () => void;
  /** Opens the drawer again after an expired session reloaded the page, with what was typed. */
  onReopen: () => void;
  /** Values the drawer opens with (a room, day and times picked on the booking calendar). */
  prefill?: BookingPrefill;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const paths = orderPaths(resource);
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (open && prefill) form.setFieldsValue({ ...prefill, day: dayjs(prefill.day) });
  }, [open, prefill, form]);
  useKeptForm(
    `order-create:${resource.key}`,
    open,
    () => ({ context: null, values: form.getFieldsValue(true) as Record<string, unknown> }),
    ({ values }) => {
      form.setFieldsValue(values);
      onReopen();
    },
  );
  const productId = Form.useWatch('productId', form);
  const from = Form.useWatch('from', form);
  const to = Form.useWatch('to', form);
  const payMethod = Form.useWatch('payMethod', form);
  const memberPhone = (Form.useWatch('memberPhone', form) ?? '').trim();
  const products = useQuery({
    queryKey: [resource.key, 'products'],
    queryFn: () => api.get<OrderProductOption[]>(paths.products),
    enabled: open,
  });
  const buildings = useQuery({
    queryKey: ['list', `${prefixes.building}/building/list`],
    queryFn: () => api.get<ListOption[]>(`${prefixes.building}/building/list`),
    enabled: open && !resource.booking,
    staleTime: 60_000,
  });
  const product = products.data?.find((p) => p.value === productId);
  const phoneComplete = PHONE_PATTERN.test(memberPhone);
  const cards = useQuery({
    queryKey: [resource.key, 'cards', memberPhone],
    queryFn: () => api.get<PayingCardOption[]>(companyCardEndpoints.findListByPhone, { phone: memberPhone }),
    enabled: open && payMethod === 'card' && phoneComplete,
  });

  // Meeting cards may be sold in a 会议卡活动 selling this card now.
  const activities = useQuery({
    queryKey: [resource.key, 'activities', productId],
    queryFn: () => api.get<CardActivityOption[]>(paths.activities, { productId }),
    enabled: open && resource.kind === 'team-card' && productId !== undefined,
  });
  const activityId = Form.useWatch('activityId', form);
  const activity = activities.data?.find((a) => a.value === activityId);

  const times = useMemo(() => {
    if (!product?.openTime || !product.closeTime) return { starts: [], ends: [] };
    const open = minutesOf(product.openTime);
    const close = minutesOf(product.closeTime);
    const shortest = product.minBookingMinutes ?? BOOKING_STEP_MINUTES;
    const start = from ? minutesOf(from) : open;
    return { starts: quarterHours(open, close - shortest), ends: quarterHours(start + shortest, close) };
  }, [product, from]);

  const priceFen =
    product && resource.booking
      ? from && to && minutesOf(to) > minutesOf(from)
        ? Math.round((product.priceFen * (minutesOf(to) - minutesOf(from))) / 60)
        : undefined
      : (activity?.discountPriceFen ?? product?.priceFen);

  const save = useSubmit({
    mutationFn: (form: Values) => {
      // Card orders have no pay method input: a sale at the desk is paid offline.
      const values = { ...form, payMethod: resource.booking ? form.payMethod : ('offline' as const) };
      return api.post<OrderDetail>(paths.save, {
        memberPhone: values.memberPhone.trim(),
        productId: values.productId,
        buildingId: resource.booking ? undefined : values.buildingId,
        payMethod: values.payMethod,
        paid: values.payMethod === 'card' ? true : values.paid,
        cardNo: values.payMethod === 'card' ? values.cardNo?.trim() : undefined,
        activityId: values.activityId,
        referrerPhone: values.referrerPhone?.trim() || undefined,
        remark: values.remark?.trim() || undefined,
        ...(resource.booking && values.day && values.from && values.to
          ? { startAt: businessIso(values.day, values.from), endAt: businessIso(values.day, values.to) }
          : {}),
      });
    },
    onSuccess: (order) => {
      message.success(`订单 ${order.orderNo} 已创建`);
      void queryClient.invalidateQueries({ queryKey: [resource.key] });
      form.resetFields();
      onClose();
    },
  });

  return (
    <Drawer
      title={`新建${resource.label}`}
      open={open}
      size={520}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            保存
          </Button>
        </Space>
      }
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ payMethod: 'offline', paid: false }}
        onFinish={(values) => save.mutate(values)}
        onValuesChange={(changed: Partial<Values>) => {
          // Times and the building depend on the product; the end on the start.
          if ('productId' in changed)
            form.setFieldsValue({
              from: undefined,
              to: undefined,
              buildingId: undefined,
              activityId: undefined,
            });
          if ('from' in changed) form.setFieldsValue({ to: undefined });
          // The cards listed are the member's: another member, another list.
          if ('memberPhone' in changed) form.setFieldsValue({ cardNo: undefined });
        }}
      >
        <Form.Item name="memberPhone" label={labels.memberPhone} rules={rules.phone}>
          <Input allowClear maxLength={11} placeholder="请输入已注册会员的手机号" />
        </Form.Item>
        <Form.Item
          name="productId"
          label={labels.productId}
          rules={[{ required: true, message: '请选择产品' }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={products.isFetching}
            placeholder="请选择产品（仅已发布）"
            options={products.data?.map((p) => ({ value: p.value, label: p.label }))}
          />
        </Form.Item>
        {!resource.booking && (
          <Form.Item
            name="buildingId"
            label={labels.buildingId}
            rules={[{ required: true, message: '请选择售卡楼宇' }]}
          >
            <Select
              placeholder={product ? '请选择售卡楼宇' : '请先选择产品'}
              disabled={!product}
              options={buildings.data
                ?.filter((b) => product?.buildingIds.includes(b.value))
                .map((b) => ({ value: b.value, label: b.label }))}
            />
          </Form.Item>
        )}
        {resource.kind === 'team-card' && (
          <Form.Item
            name="activityId"
            label={labels.activityId}
            extra={
              activity
                ? `按活动价 ${formatYuan(activity.discountPriceFen)} 售卖，剩余 ${activity.remaining} 张，每人限购 ${activity.limitPerUser} 张`
                : '不选则按会议卡售价售卖'
            }
          >
            <Select
              allowClear
              disabled={!product}
              loading={activities.isFetching}
              placeholder={
                product
                  ? activities.data?.length === 0
                    ? '该会议卡当前没有进行中的活动'
                    : '请选择会议卡活动（可不选）'
                  : '请先选择产品'
              }
              options={activities.data?.map((a) => ({
                value: a.value,
                label: `${a.label} · 活动价 ${formatYuan(a.discountPriceFen)} · 剩余 ${a.remaining} · 至 ${a.endAt.slice(0, 10)}`,
              }))}
            />
          </Form.Item>
        )}
        {resource.booking && (
          <>
            <Form.Item name="day" label="预订日期" rules={[{ required: true, message: '请选择预订日期' }]}>
              <DatePicker
                style={{ width: '100%' }}
                disabledDate={(d) => d.isBefore(dayjs(businessDay(new Date())))}
                placeholder="请选择预订日期"
              />
            </Form.Item>
            <Space.Compact block>
              <Form.Item
                name="from"
                label={labels.startAt}
                rules={[{ required: true, message: '请选择开始时间' }]}
                style={{ flex: 1 }}
              >
                <Select
                  // Typing 1430 or 14:30 finds the time without scrolling the quarter hours.
                  showSearch={{ filterOption: timeMatches }}
                  placeholder={product ? '开始时间（可输入）' : '请先选择产品'}
                  disabled={!product}
                  options={times.starts.map((t) => ({ value: t, label: t }))}
                />
              </Form.Item>
              <Form.Item
                name="to"
                label={labels.endAt}
                rules={[{ required: true, message: '请选择结束时间' }]}
                style={{ flex: 1 }}
              >
                <Select
                  showSearch={{ filterOption: timeMatches }}
                  placeholder={product ? '结束时间（可输入）' : '请先选择产品'}
                  disabled={!product}
                  options={times.ends.map((t) => ({ value: t, label: t }))}
                />
              </Form.Item>
            </Space.Compact>
            {product && (
              <Typography.Paragraph type="secondary">
                开放时间 {product.openTime}–{product.closeTime}，最短预订 {product.minBookingMinutes}{' '}
                分钟，每小时 {formatYuan(product.priceFen)}
              </Typography.Paragraph>
            )}
            <Form.Item name="payMethod" label={labels.payMethod} rules={[{ required: true }]}>
              <Radio.Group options={savePayMethodOptions.map((o) => ({ value: o.value, label: o.label }))} />
            </Form.Item>
          </>
        )}
        {payMethod === 'card' ? (
          <Form.Item
            name="cardNo"
            label={labels.cardNo}
            rules={[{ required: true, message: '用会议卡支付时请选择会员的会议卡' }]}
            extra="会员本人已支付、未过期且有余额的会议卡，先到期的在前；预订金额从所选卡的余额中扣除"
          >
            <Select
              loading={cards.isFetching}
              disabled={!phoneComplete}
              placeholder={
                !phoneComplete
                  ? '请先填写会员手机号'
                  : cards.data?.length === 0
                    ? '该会员没有可用的会议卡，请改用线下支付'
                    : '请选择会议卡'
              }
              options={cards.data?.map((card) => cardOption(card, product?.buildingIds[0], priceFen))}
            />
          </Form.Item>
        ) : (
          <Form.Item
            name="paid"
            label="已线下收款"
            valuePropName="checked"
            extra="不勾选则订单为待支付，收款后在详情中确认支付"
          >
            <Switch />
          </Form.Item>
        )}
        <Form.Item name="referrerPhone" label={labels.referrerPhone} rules={rules.optionalPhone}>
          <Input allowClear maxLength={11} placeholder="选填" />
        </Form.Item>
        <Form.Item
          name="remark"
          label={labels.remark}
          rules={[{ max: 500, message: '备注最多 500 个字符，请删减后重试' }]}
        >
          <Input.TextArea rows={2} placeholder="选填" />
        </Form.Item>
        <Typography.Text strong aria-label="订单金额">
          订单金额：{priceFen === undefined ? '—' : formatYuan(priceFen)}
        </Typography.Text>
      </Form>
    </Drawer>
  );
}
