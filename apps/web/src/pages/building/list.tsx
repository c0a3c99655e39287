/**
 * 楼宇列表: buildings on the shared ResourcePage. What is special: one 省/市/区 cascader fills
 * provinceCode, cityCode and regionCode; highlights and facilities are picked grouped by kind;
 * the search form filters by one of the cities that have buildings. The table shows the area and
 * the hours by name (the server answers areaName and openingHours).
 */
import { Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  brightPointKinds,
  brightPointLabelListPath,
  type BrightPointLabel,
} from '@cowork/contract/resources/bright-point';
import { building, buildingEndpoints, type BuildingCity } from '@cowork/contract/resources/building';
import { AreaCascader, fromAreaValue, toAreaValue } from '../../components/AreaCascader.tsx';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';
import { useListOptions } from '../../components/resource/field-input.tsx';
import { api } from '../../lib/request.ts';
import { textOf } from '../../lib/values.ts';

const AREA_REQUIRED = '请选择所在地区（省份/城市/区县）';

/** The cascader as the input of cityCode; it also sets the hidden provinceCode and regionCode. */
function AreaInput({
  value,
  onChange,
  id,
}: {
  value?: string | null;
  onChange?: (cityCode: string | null) => void;
  id?: string;
}) {
  const form = Form.useFormInstance();
  const provinceCode = textOf(Form.useWatch('provinceCode', form));
  const regionCode = textOf(Form.useWatch('regionCode', form));
  return (
    <AreaCascader
      id={id}
      value={toAreaValue({ provinceCode, cityCode: value, regionCode })}
      onChange={(next) => {
        const codes = fromAreaValue(next);
        form.setFieldsValue({ provinceCode: codes.provinceCode, regionCode: codes.regionCode });
        onChange?.(codes.cityCode);
      }}
    />
  );
}

/** 所在地区: one input for the three area fields of the declaration. */
function AreaFormItems() {
  return (
    <>
      <Form.Item name="provinceCode" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="regionCode" hidden>
        <Input />
      </Form.Item>
      <Form.Item
        name="cityCode"
        label="所在地区"
        required
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_rule, cityCode: unknown) => {
              if (!getFieldValue('provinceCode') || !cityCode) throw new Error(AREA_REQUIRED);
            },
          }),
        ]}
      >
        <AreaInput />
      </Form.Item>
    </>
  );
}

const { brightPointIds } = building.fields;

/** Highlights and facilities grouped by kind; one no longer published still shows by name. */
function BrightPointSelect(props: { value?: number[]; onChange?: (ids: number[]) => void; id?: string }) {
  const published = useQuery({
    queryKey: ['list', brightPointLabelListPath],
    queryFn: () => api.get<BrightPointLabel[]>(brightPointLabelListPath),
    staleTime: 60_000,
  });
  const all = useListOptions(brightPointIds.listEndpoint);
  const offered = new Set(published.data?.map((p) => p.id));
  const withdrawn = (all.data ?? []).filter((o) => !offered.has(o.value) && props.value?.includes(o.value));
  const options = [
    ...brightPointKinds.map((kind) => ({
      label: kind.label,
      title: kind.label,
      options: (published.data ?? [])
        .filter((p) => p.kind === kind.value)
        .map((p) => ({ value: p.id, label: p.name })),
    })),
    ...(withdrawn.length
      ? [
          {
            label: '已下架',
            title: '已下架',
            options: withdrawn.map((o) => ({ value: o.value, label: o.label })),
          },
        ]
      : []),
  ];
  return (
    <Select
      {...props}
      mode="multiple"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={published.isFetching || all.isFetching}
      placeholder={`请选择${brightPointIds.label}`}
      options={options}
    />
  );
}

/** The cities that have buildings, with how many each. */
function CitySelect(props: { value?: string; onChange?: (code: string | undefined) => void; id?: string }) {
  const cities = useQuery({
    queryKey: [building.key, 'buildingCity'],
    queryFn: () => api.get<BuildingCity[]>(buildingEndpoints.buildingCity),
  });
  return (
    <Select
      {...props}
      allowClear
      style={{ minWidth: 160 }}
      placeholder="全部城市"
      loading={cities.isFetching}
      options={cities.data?.map((c) => ({ value: c.code, label: `${c.name}（${c.buildingCount}）` }))}
    />
  );
}

export default function BuildingListPage() {
  return (
    <ResourcePage
      resource={building}
      formItems={{
        provinceCode: <AreaFormItems />,
        cityCode: null,
        regionCode: null,
        brightPointIds: (
          <Form.Item
            name="brightPointIds"
            label={brightPointIds.label}
            extra="亮点与设施在「系统配置 / 设施配置」中维护"
          >
            <BrightPointSelect />
          </Form.Item>
        ),
      }}
      searchInputs={{ cityCode: <CitySelect /> }}
    />
  );
}
