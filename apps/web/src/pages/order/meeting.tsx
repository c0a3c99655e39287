/** 会议卡订单: orders of meeting cards (team-card-order); a paid card carries its balance. */
import { teamCardOrder } from '@cowork/contract/resources/order';
import { OrderPage } from '../../components/order/OrderPage.tsx';

export default function MeetingCardOrderPage() {
  return <OrderPage resource={teamCardOrder} />;
}
