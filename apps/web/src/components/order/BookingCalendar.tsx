/**
 * 预订日历 on 会议室/活动场地 orders: the rooms of one building against the hours of a day (half-hour
 * cells: busy with the booking's number, closed outside the room's hours, free otherwise), or against
 * the days of a week (how much of each day is booked). A click on a free cell, or a drag across free
 * cells of one room, opens 新建订单 with that room, day and time, so the booking goes through the
 * same rules as any other; a day of the week view opens that day. On a phone (narrower than antd's
 * md) the day is one room at a time, its half hours as a list (free ones tap to book), and the week
 * scrolls sideways under a fixed room column. Loaded only when shown.
 */
import { useMemo, useRef, useState } from 'react';
import { Button, Card, DatePicker, Empty, Grid, Segmented, Select, Space, Tooltip, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { businessDay, businessInstant, prefixes, type ListOption, optionLabel } from '@cowork/contract';
import {
  orderPaths,
  orderStatusOptions,
  type CalendarBooking,
  type OrderProductOption,
  type OrderResource,
} from '@cowork/contract/resources/order';
import { api } from '../../lib/request.ts';
import type { BookingPrefill } from './CreateOrderDrawer.tsx';
import './calendar.css';

const SLOT_MINUTES = 30;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
/** Minutes from midnight (business time zone) of `day` to an ISO moment (negative before, past 1440 after). */
const minuteOn = (day: string, iso: string) =>
  Math.round((Date.parse(iso) - businessInstant(day).getTime()) / 60_000);
/** Today in the business time zone, as the day pickers hold it. */
const today = () => dayjs(businessDay(new Date()));
const statusLabel = (status: string) => optionLabel(orderStatusOptions, status);
/** A room's own name, without its building. */
const roomName = (room: OrderProductOption) => room.label.split(' · ').pop()!;

/**
 * The half hours shown for a day (from the earliest opening to the latest closing of the rooms),
 * and what each is for a room: its booking, closed (outside its hours or past), or free.
 */
function daySlots(day: string, rooms: OrderProductOption[], bookings: CalendarBooking[]) {
  const open = Math.min(...rooms.map((r) => minutesOf(r.openTime ?? '09:00')));
  const close = Math.max(...rooms.map((r) => minutesOf(r.closeTime ?? '21:00')));
  const first = Math.floor(open / SLOT_MINUTES) * SLOT_MINUTES;
  const slots = Array.from(
    { length: Math.ceil((close - first) / SLOT_MINUTES) },
    (_, i) => first + i * SLOT_MINUTES,
  );
  const now = minuteOn(day, new Date().toISOString());
  const busyAt = (roomId: number, slot: number) =>
    bookings.find(
      (b) =>
        b.productId === roomId &&
        minuteOn(day, b.startAt) < slot + SLOT_MINUTES &&
        minuteOn(day, b.endAt) > slot,
    );
  const freeAt = (room: OrderProductOption, slot: number) =>
    slot >= minutesOf(room.openTime ?? '00:00') &&
    slot + SLOT_MINUTES <= minutesOf(room.closeTime ?? '23:59') + 1 &&
    slot + SLOT_MINUTES > now &&
    !busyAt(room.value, slot);
  /** The booking 新建订单 opens for a pick from slot `a` to slot `b`: at least the room's shortest. */
  const pick = (room: OrderProductOption, a: number, b: number): BookingPrefill => {
    const start = Math.min(a, b);
    const shortest = room.minBookingMinutes ?? SLOT_MINUTES;
    const closeAt = minutesOf(room.closeTime ?? '23:59');
    const end = Math.min(Math.max(Math.max(a, b) + SLOT_MINUTES, start + shortest), closeAt);
    return { productId: room.value, day, from: hhmm(start), to: hhmm(end) };
  };
  return { slots, busyAt, freeAt, pick };
}

const bookingText = (booking: CalendarBooking) =>
  `${booking.orderNo} · ${booking.memberPhone} · ${statusLabel(booking.status)} · ${booking.startAt.slice(11, 16)}–${booking.endAt.slice(11, 16)}`;

type View = 'day' | 'week';

export function BookingCalendar({
  resource,
  onBook,
}: {
  resource: OrderResource;
  onBook: (pick: BookingPrefill) => void;
}) {
  const paths = orderPaths(resource);
  // antd's md breakpoint, as the layout's: narrower is a phone.
  const narrow = Grid.useBreakpoint().md === false;
  const [view, setView] = useState<View>('day');
  const [day, setDay] = useState<Dayjs>(today);
  const rooms = useQuery({
    queryKey: [resource.key, 'products'],
    queryFn: () => api.get<OrderProductOption[]>(paths.products),
  });
  const buildings = useQuery({
    queryKey: ['list', `${prefixes.building}/building/list`],
    queryFn: () => api.get<ListOption[]>(`${prefixes.building}/building/list`),
    staleTime: 60_000,
  });
  const withRooms = useMemo(
    () => (buildings.data ?? []).filter((b) => rooms.data?.some((r) => r.buildingIds[0] === b.value)),
    [buildings.data, rooms.data],
  );
  const [chosen, setChosen] = useState<number>();
  const buildingId = chosen ?? withRooms[0]?.value;
  const shown = (rooms.data ?? []).filter((r) => r.buildingIds[0] === buildingId);
  const from = (view === 'day' ? day : day.startOf('week')).format('YYYY-MM-DD');
  const days =
    view === 'day'
      ? [from]
      : Array.from({ length: 7 }, (_, i) => dayjs(from).add(i, 'day').format('YYYY-MM-DD'));
  const bookings = useQuery({
    queryKey: [resource.key, 'calendar', buildingId, from, days.length],
    queryFn: () =>
      api.get<CalendarBooking[]>(paths.calendar, { buildingId, from, to: days[days.length - 1] }),
    enabled: buildingId !== undefined,
  });
  const step = view === 'day' ? 'day' : 'week';

  return (
    <Card>
      <Space wrap size={12} style={{ marginBottom: 16 }}>
        <Select
          aria-label="楼宇"
          style={{ width: 220 }}
          placeholder="请选择楼宇"
          loading={buildings.isLoading || rooms.isLoading}
          value={buildingId}
          onChange={setChosen}
          options={withRooms}
        />
        <Segmented<View>
          value={view}
          onChange={setView}
          options={[
            { value: 'day', label: '日' },
            { value: 'week', label: '周' },
          ]}
        />
        <Space.Compact>
          <Button
            aria-label={view === 'day' ? '前一天' : '前一周'}
            icon={<LeftOutlined />}
            onClick={() => setDay(day.subtract(1, step))}
          />
          <DatePicker aria-label="日期" value={day} allowClear={false} onChange={(d) => d && setDay(d)} />
          <Button
            aria-label={view === 'day' ? '后一天' : '后一周'}
            icon={<RightOutlined />}
            onClick={() => setDay(day.add(1, step))}
          />
        </Space.Compact>
        <Button onClick={() => setDay(today())}>今天</Button>
        <Typography.Text type="secondary">
          {view === 'week'
            ? '点击某天查看当天的时段'
            : narrow
              ? '点击空闲时段即可新建预订'
              : '点击或拖选空闲时段即可新建预订'}
        </Typography.Text>
      </Space>
      {shown.length === 0 ? (
        <Empty description={rooms.isLoading ? '正在加载…' : '该楼宇没有已发布的场地，请先在产品管理中发布'} />
      ) : view === 'day' && narrow ? (
        <DayList day={from} rooms={shown} bookings={bookings.data ?? []} onBook={onBook} />
      ) : view === 'day' ? (
        <DayGrid day={from} rooms={shown} bookings={bookings.data ?? []} onBook={onBook} />
      ) : (
        <WeekGrid
          days={days}
          rooms={shown}
          bookings={bookings.data ?? []}
          onOpen={(d) => {
            setDay(dayjs(d));
            setView('day');
          }}
        />
      )}
    </Card>
  );
}

/** A drag in progress: the room and the first and current slots (minutes of the day). */
interface Drag {
  roomId: number;
  anchor: number;
  current: number;
}

/** What both day views (the grid, and the list on a phone) are drawn from. */
interface DayViewProps {
  day: string;
  rooms: OrderProductOption[];
  bookings: CalendarBooking[];
  onBook: (pick: BookingPrefill) => void;
}

function DayGrid({ day, rooms, bookings, onBook }: DayViewProps) {
  const { slots, busyAt, freeAt, pick } = daySlots(day, rooms, bookings);
  const [drag, setDrag] = useState<Drag>();
  const dragRef = useRef<Drag>(undefined);

  const finish = () => {
    const picked = dragRef.current;
    dragRef.current = undefined;
    setDrag(undefined);
    if (!picked) return;
    const room = rooms.find((r) => r.value === picked.roomId)!;
    onBook(pick(room, picked.anchor, picked.current));
  };
  const selected = (roomId: number, slot: number) =>
    drag?.roomId === roomId &&
    slot >= Math.min(drag.anchor, drag.current) &&
    slot <= Math.max(drag.anchor, drag.current);

  return (
    <div className="booking-calendar" onMouseLeave={() => dragRef.current && finish()}>
      <table aria-label="预订日历" onMouseUp={finish}>
        <thead>
          <tr>
            <th className="booking-calendar-room">场地</th>
            {slots.map((slot) => (
              <th key={slot} className="booking-calendar-hour">
                {slot % 60 === 0 ? hhmm(slot) : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rooms.map((room) => (
            <tr key={room.value}>
              <th className="booking-calendar-room" scope="row">
                {roomName(room)}
              </th>
              {slots.map((slot) => {
                const booking = busyAt(room.value, slot);
                const label = `${roomName(room)} ${hhmm(slot)}–${hhmm(slot + SLOT_MINUTES)}`;
                if (booking)
                  return (
                    <Tooltip key={slot} title={bookingText(booking)}>
                      <td
                        className={`booking-calendar-busy is-${booking.status}`}
                        aria-label={`${label} 已预订`}
                      />
                    </Tooltip>
                  );
                if (!freeAt(room, slot))
                  return (
                    <td key={slot} className="booking-calendar-closed" aria-label={`${label} 不可预订`} />
                  );
                return (
                  <td
                    key={slot}
                    role="button"
                    aria-label={`${label} 空闲`}
                    className={
                      selected(room.value, slot)
                        ? 'booking-calendar-free is-selected'
                        : 'booking-calendar-free'
                    }
                    onMouseDown={(e) => {
                      e.preventDefault();
                      dragRef.current = { roomId: room.value, anchor: slot, current: slot };
                      setDrag(dragRef.current);
                    }}
                    onMouseEnter={() => {
                      const current = dragRef.current;
                      // A drag stays in its room and stops at the first busy or closed cell.
                      if (!current || current.roomId !== room.value) return;
                      const [low, high] = [Math.min(current.anchor, slot), Math.max(current.anchor, slot)];
                      for (let s = low; s <= high; s += SLOT_MINUTES) if (!freeAt(room, s)) return;
                      dragRef.current = { ...current, current: slot };
                      setDrag(dragRef.current);
                    }}
                  />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <Legend />
    </div>
  );
}

/** What the colours mean; each entry stays on one line (the row wraps between entries). */
function Legend() {
  return (
    <Space size={[16, 4]} wrap className="booking-calendar-legend">
      <span>
        <i className="booking-calendar-free" /> 空闲
      </span>
      <span>
        <i className="booking-calendar-busy is-paid" /> 已预订
      </span>
      <span>
        <i className="booking-calendar-busy is-pending" /> 待支付
      </span>
      <span>
        <i className="booking-calendar-closed" /> 不开放或已过去
      </span>
    </Space>
  );
}

/** A run of half hours shown as one row: one booking, a stretch that cannot be booked, or a free slot. */
type Run =
  | { kind: 'busy'; from: number; to: number; booking: CalendarBooking }
  | { kind: 'closed'; from: number; to: number }
  | { kind: 'free'; from: number; to: number };

/**
 * The day on a phone: a room picker, then the room's half hours top to bottom. A booking's half
 * hours are one row with its order; free half hours are one row each, a tap opens 新建订单 there.
 */
function DayList({ day, rooms, bookings, onBook }: DayViewProps) {
  const [chosen, setChosen] = useState<number>();
  const room = rooms.find((r) => r.value === chosen) ?? rooms[0];
  const { slots, busyAt, freeAt, pick } = daySlots(day, rooms, bookings);
  const runs: Run[] = [];
  for (const slot of slots) {
    const booking = busyAt(room.value, slot);
    const kind = booking ? 'busy' : freeAt(room, slot) ? 'free' : 'closed';
    const last = runs.at(-1);
    const joins =
      last?.to === slot &&
      kind !== 'free' &&
      last.kind === kind &&
      (kind === 'closed' || (last.kind === 'busy' && last.booking === booking));
    if (joins) last.to = slot + SLOT_MINUTES;
    else if (booking) runs.push({ kind: 'busy', from: slot, to: slot + SLOT_MINUTES, booking });
    else runs.push({ kind: kind as 'free' | 'closed', from: slot, to: slot + SLOT_MINUTES });
  }
  const name = roomName(room);
  return (
    <div className="booking-calendar booking-calendar-list">
      <Select
        aria-label="场地"
        style={{ width: '100%', marginBottom: 12 }}
        value={room.value}
        onChange={setChosen}
        options={rooms.map((r) => ({ value: r.value, label: roomName(r) }))}
      />
      <ul aria-label="预订日历">
        {runs.map((run) => {
          const time = `${hhmm(run.from)}–${hhmm(run.to)}`;
          if (run.kind === 'free')
            return (
              <li key={run.from}>
                <button
                  type="button"
                  className="booking-calendar-slot booking-calendar-free"
                  aria-label={`${name} ${time} 空闲`}
                  onClick={() => onBook(pick(room, run.from, run.from))}
                >
                  <span className="booking-calendar-time">{time}</span>
                  <span>空闲，点击预订</span>
                </button>
              </li>
            );
          if (run.kind === 'closed')
            return (
              <li key={run.from} className="booking-calendar-slot booking-calendar-closed">
                <span className="booking-calendar-time">{time}</span>
                <span>不开放或已过去</span>
              </li>
            );
          return (
            <li
              key={run.from}
              className={`booking-calendar-slot booking-calendar-busy is-${run.booking.status}`}
              aria-label={`${name} ${time} 已预订`}
            >
              <span className="booking-calendar-time">{time}</span>
              <span>
                {statusLabel(run.booking.status)} · {run.booking.memberPhone}
                <br />
                {run.booking.orderNo}
              </span>
            </li>
          );
        })}
      </ul>
      <Legend />
    </div>
  );
}

function WeekGrid({
  days,
  rooms,
  bookings,
  onOpen,
}: {
  days: string[];
  rooms: OrderProductOption[];
  bookings: CalendarBooking[];
  onOpen: (day: string) => void;
}) {
  const weekday = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
  return (
    <div className="booking-calendar">
      <table aria-label="预订日历（周）" className="booking-calendar-week">
        <thead>
          <tr>
            <th className="booking-calendar-room">场地</th>
            {days.map((d) => (
              <th key={d}>{`${d.slice(5)} ${weekday[dayjs(d).day()]}`}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rooms.map((room) => {
            const openMinutes = minutesOf(room.closeTime ?? '21:00') - minutesOf(room.openTime ?? '09:00');
            return (
              <tr key={room.value}>
                <th className="booking-calendar-room" scope="row">
                  {roomName(room)}
                </th>
                {days.map((d) => {
                  const mine = bookings.filter(
                    (b) =>
                      b.productId === room.value && b.startAt.slice(0, 10) <= d && b.endAt.slice(0, 10) >= d,
                  );
                  const minutes = mine.reduce(
                    (sum, b) =>
                      sum +
                      Math.max(0, Math.min(minuteOn(d, b.endAt), 1440) - Math.max(minuteOn(d, b.startAt), 0)),
                    0,
                  );
                  const share = openMinutes > 0 ? Math.min(1, minutes / openMinutes) : 0;
                  return (
                    <td key={d} className="booking-calendar-day">
                      <button type="button" onClick={() => onOpen(d)} aria-label={`${roomName(room)} ${d}`}>
                        <span
                          className="booking-calendar-bar"
                          style={{ width: `${Math.round(share * 100)}%` }}
                        />
                        <span>
                          {mine.length ? `${mine.length} 单 · ${(minutes / 60).toFixed(1)} 小时` : '空闲'}
                        </span>
                      </button>
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export default BookingCalendar;
