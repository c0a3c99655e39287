/**
 * 机场贵宾厅: products come from 初始化贵宾厅产品 (one per configured airport that has none, ¥0 and
 * unpublished); staff then set the price in the edit drawer and publish. The table shows each
 * airport's city and name next to its code.
 */
import { App, Button, Popconfirm, Select } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { resourcePermissions, type Envelope } from '@cowork/contract';
import { airportCodeOptionsPath, type AirportCodeOption } from '@cowork/contract/resources/airport-code';
import { airportProduct, airportProductInitPath } from '@cowork/contract/resources/airport-product';
import { usePermission } from '../../components/PermissionGate.tsx';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';
import { api, request, settled } from '../../lib/request.ts';

function AirportSelect(props: { id?: string; value?: string; onChange?: (code: string) => void }) {
  const airports = useQuery({
    queryKey: ['list', airportCodeOptionsPath],
    queryFn: () => api.get<AirportCodeOption[]>(airportCodeOptionsPath),
    staleTime: 60_000,
  });
  return (
    <Select
      {...props}
      showSearch={{ optionFilterProp: 'label' }}
      loading={airports.isFetching}
      placeholder="请选择机场"
      options={airports.data?.map((a) => ({ value: a.value, label: a.label }))}
    />
  );
}

function InitButton() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const init = useMutation({
    // The whole envelope: its msg says how many products were made.
    mutationFn: () =>
      request.post<Envelope<{ created: number }>, Envelope<{ created: number }>>(airportProductInitPath),
    onSuccess: (answer) => {
      message.success(answer.msg);
      void queryClient.invalidateQueries({ queryKey: [airportProduct.key] });
    },
  });
  return (
    <Popconfirm
      title="为尚无贵宾厅产品的机场生成产品？"
      description="新产品未上架、价格为 ¥0.00，请补充价格后再上架。"
      okText="生成"
      cancelText="取消"
      onConfirm={() => settled(init.mutateAsync())}
    >
      <Button icon={<ThunderboltOutlined />} loading={init.isPending}>
        初始化贵宾厅产品
      </Button>
    </Popconfirm>
  );
}

export default function AirportProductPage() {
  const { can } = usePermission();
  return (
    <ResourcePage
      resource={airportProduct}
      toolbar={can([resourcePermissions(airportProduct).edit]) ? <InitButton /> : null}
      inputs={{ airportCode: <AirportSelect /> }}
    />
  );
}
