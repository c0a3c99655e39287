/**
 * 机场贵宾厅订单: airport lounge orders (airport-order), read-only: the list shows the airport,
 * terminal and lounge from the product as sold and filters by airport code instead of building;
 * the detail has no moves (airport orders are only looked up here, never changed).
 */
import { airportOrder } from '@cowork/contract/resources/order';
import { OrderPage } from '../../components/order/OrderPage.tsx';

export default function AirportOrderPage() {
  return <OrderPage resource={airportOrder} />;
}
