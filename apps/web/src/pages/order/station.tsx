/**
 * 会议室订单 (/order/meetingRoom) and 活动场地订单 (/order/activityVenue): one page, the route picks
 * the declaration. Bookings list and show their start and end; staff create them with 新建订单.
 */
import { useLocation } from 'react-router';
import { officeStationOrder, stationOrderOfPath } from '@cowork/contract/resources/order';
import { OrderPage } from '../../components/order/OrderPage.tsx';

export default function StationOrderPage() {
  const { pathname } = useLocation();
  const resource = stationOrderOfPath[pathname.replace(/\/$/, '')] ?? officeStationOrder;
  // A fresh page per route, so the filters of one menu never leak into the other.
  return <OrderPage key={resource.key} resource={resource} />;
}
