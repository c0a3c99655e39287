/** 会员卡订单: orders of member cards (user-card-order), with card number lookup in the detail. */
import { userCardOrder } from '@cowork/contract/resources/order';
import { OrderPage } from '../../components/order/OrderPage.tsx';

export default function MemberCardOrderPage() {
  return <OrderPage resource={userCardOrder} />;
}
