/**
 * 省/市/区 picker: an antd Cascader over the area endpoints, usable as an antd Form input. Its value
 * is `[provinceCode, cityCode, regionCode]` (GB/T 2260 codes); `[provinceCode, cityCode]` for a
 * city without counties (东莞市, 中山市, 儋州市, 嘉峪关市). Municipalities go through 市辖区 / 县
 * and directly governed cities through 省直辖县级行政区划, as the data has them.
 *
 * Each level is fetched when it is opened (TanStack Query, cached for the session: the data never
 * changes while the console runs). An existing value (a record being edited) shows its names
 * through one area-info call; the columns of its path are fetched when the dropdown opens.
 *
 * @example
 * <Form.Item name="area" label="所在地区" rules={[{ required: true, message: '请选择所在地区' }]}>
 *   <AreaCascader />
 * </Form.Item>
 * // loading a record:  form.setFieldsValue({ ...record, area: toAreaValue(record) })
 * // saving it:         api.post(url, { ...values, ...fromAreaValue(values.area) })
 */
import { useEffect, useState, type CSSProperties } from 'react';
import { Cascader } from 'antd';
import { useQueries, useQuery } from '@tanstack/react-query';
import {
  areaEndpoints,
  areaLevelOf,
  areaMessages,
  type AreaFields,
  type AreaInfo,
  type AreaRecord,
} from '@cowork/contract';
import { api } from '../lib/request.ts';

/** `[provinceCode, cityCode, regionCode]`, shorter where the area stops higher. */
export type AreaValue = string[];

/** The cascader value of a record's provinceCode / cityCode / regionCode (undefined without a province). */
export function toAreaValue(record: AreaFields | null | undefined): AreaValue | undefined {
  const codes = [record?.provinceCode, record?.cityCode, record?.regionCode];
  const end = codes.findIndex((code) => !code);
  const value = (end === -1 ? codes : codes.slice(0, end)) as string[];
  return value.length ? value : undefined;
}

/** The record fields of a cascader value; levels it does not reach are null. */
export function fromAreaValue(value: readonly string[] | null | undefined): Required<AreaFields> {
  return {
    provinceCode: value?.[0] || null,
    cityCode: value?.[1] || null,
    regionCode: value?.[2] || null,
  };
}

/** Query keys of the area lists; the data is fixed, so it never goes stale. */
export const areaQueryKeys = {
  provinces: ['area', 'province-list'] as const,
  children: (code: string) => ['area', 'children', code] as const,
  info: (code: string) => ['area', 'area-info', code] as const,
};

const fetchChildren = (code: string) =>
  areaLevelOf(code) === 'province'
    ? api.get<AreaRecord[]>(areaEndpoints.cityList, { provinceCode: code })
    : api.get<AreaRecord[]>(areaEndpoints.regionList, { cityCode: code });

/** The list with the codes it lacks added; the same list when nothing is new. */
const withCodes = (current: string[], codes: string[]) => {
  const added = codes.filter((code, i) => code && !current.includes(code) && codes.indexOf(code) === i);
  return added.length ? [...current, ...added] : current;
};

interface AreaOption {
  value: string;
  label: string;
  isLeaf: boolean;
  children?: AreaOption[];
}

export interface AreaCascaderProps {
  /** Form.Item passes it. */
  value?: readonly string[] | null;
  /** Called with the chosen path, or undefined once cleared. */
  onChange?: (value: AreaValue | undefined) => void;
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  /** Set by Form.Item so the label points at the input. */
  id?: string;
  style?: CSSProperties;
  className?: string;
  /** How deep the path goes: 'region' (省/市/区, the default) or 'city' (省/市, a city is chosen by clicking it). */
  depth?: 'city' | 'region';
}

export function AreaCascader({
  value,
  onChange,
  placeholder = areaMessages.placeholder,
  disabled,
  allowClear = true,
  id,
  style,
  className,
  depth = 'region',
}: AreaCascaderProps) {
  const path = value?.filter(Boolean) ?? [];
  const [open, setOpen] = useState(false);
  /** Provinces and cities whose children were asked for (opened, or on the path of the value). */
  const [expanded, setExpanded] = useState<string[]>([]);

  const provinces = useQuery({
    queryKey: areaQueryKeys.provinces,
    queryFn: () => api.get<AreaRecord[]>(areaEndpoints.provinceList),
    staleTime: Infinity,
  });
  const lists = useQueries({
    queries: expanded.map((code) => ({
      queryKey: areaQueryKeys.children(code),
      queryFn: () => fetchChildren(code),
      staleTime: Infinity,
    })),
  });
  const children = new Map<string, AreaRecord[]>();
  expanded.forEach((code, i) => {
    const data = lists[i]?.data;
    if (data) children.set(code, data);
  });

  const names = new Map<string, string>();
  for (const area of [...(provinces.data ?? []), ...[...children.values()].flat()])
    names.set(area.code, area.name);

  // A value whose names are not loaded yet (a record being edited): one area-info call names its path.
  const deepest = path.at(-1);
  const info = useQuery({
    queryKey: areaQueryKeys.info(deepest ?? ''),
    queryFn: () => api.get<AreaInfo>(areaEndpoints.areaInfo, { code: deepest }),
    enabled: Boolean(deepest) && path.some((code) => !names.has(code)),
    staleTime: Infinity,
  });
  for (const area of info.data?.chain ?? []) if (!names.has(area.code)) names.set(area.code, area.name);

  // Opening the dropdown on a value shows the columns of its path.
  const pathKey = path.slice(0, depth === 'city' ? 1 : 2).join(',');
  useEffect(() => {
    if (open && pathKey) setExpanded((current) => withCodes(current, pathKey.split(',')));
  }, [open, pathKey]);

  // A list that failed (the request layer showed why) is asked for again when it is next opened.
  const failed = expanded.filter((_, i) => lists[i]?.isError).join(',');
  useEffect(() => {
    if (failed) setExpanded((current) => current.filter((code) => !failed.split(',').includes(code)));
  }, [failed]);

  const toOption = (area: AreaRecord): AreaOption => {
    if (area.level === 'region' || (depth === 'city' && area.level === 'city'))
      return { value: area.code, label: area.name, isLeaf: true };
    const list = children.get(area.code);
    if (!list) return { value: area.code, label: area.name, isLeaf: false };
    // A city without counties is chosen itself.
    if (list.length === 0) return { value: area.code, label: area.name, isLeaf: true };
    return { value: area.code, label: area.name, isLeaf: false, children: list.map(toOption) };
  };
  const options = (provinces.data ?? []).map(toOption);

  const waitingForNames = info.isFetching && path.some((code) => !names.has(code));

  return (
    <Cascader<AreaOption>
      id={id}
      className={className}
      style={style}
      options={options}
      value={path.length ? path : undefined}
      onChange={(next) => onChange?.(next?.length ? next.map(String) : undefined)}
      loadData={(selected) => {
        const last = selected.at(-1);
        if (last) setExpanded((current) => withCodes(current, [last.value]));
      }}
      onOpenChange={(next) => {
        setOpen(next);
        if (next && provinces.isError) void provinces.refetch();
      }}
      displayRender={() =>
        waitingForNames ? '加载中…' : path.map((code) => names.get(code) ?? code).join(' / ')
      }
      placeholder={placeholder}
      disabled={disabled}
      allowClear={allowClear}
      loading={provinces.isFetching || waitingForNames}
      notFoundContent={provinces.isError ? '加载失败，请重试' : undefined}
    />
  );
}

export default AreaCascader;
