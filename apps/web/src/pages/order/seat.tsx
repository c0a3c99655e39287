/**
 * 工位订单: 办公室工位 and 大厅工位 orders as two tabs of one page (office-seat-order,
 * hall-seat-order), each the order screen with the booked period. The tab is kept in the address
 * (`?tab=hall-seat`), so a reload or a shared link opens the same tab.
 */
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { orderKindOptions, seatOrders } from '@cowork/contract/resources/order';
import { OrderPage } from '../../components/order/OrderPage.tsx';
import { optionLabel } from '@cowork/contract';

export default function SeatOrderPage() {
  const [search, setSearch] = useSearchParams();
  const tab = seatOrders.find((r) => r.kind === search.get('tab'))?.kind ?? seatOrders[0].kind;
  return (
    <Tabs
      destroyOnHidden
      activeKey={tab}
      onChange={(key) =>
        setSearch(
          // Another tab starts from its own unfiltered first page.
          () => new URLSearchParams({ tab: key }),
          { replace: true },
        )
      }
      items={seatOrders.map((resource) => ({
        key: resource.kind,
        label: optionLabel(orderKindOptions, resource.kind),
        children: <OrderPage resource={resource} />,
      }))}
    />
  );
}
