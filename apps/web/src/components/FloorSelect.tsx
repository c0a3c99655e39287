/**
 * The floor of something in a building (a seat, a meeting room): chosen among the floors of the
 * building picked in the same form (`buildingId`), or typed when that building has none.
 */
import { useEffect } from 'react';
import { Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { buildingEndpoints } from '@cowork/contract/resources/building';
import { api } from '../lib/request.ts';

interface FloorSelectProps {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
}

export function FloorSelect(props: FloorSelectProps) {
  const buildingId = Form.useWatch<number | undefined>('buildingId', Form.useFormInstance());
  const floors = useQuery({
    queryKey: ['building', 'floors', buildingId],
    queryFn: () => api.getById<string[]>(buildingEndpoints.buildingFloors, buildingId!),
    enabled: typeof buildingId === 'number',
    staleTime: 60_000,
  });
  const { value, onChange } = props;
  // A floor kept from another building is not offered by this one: clear it rather than send it.
  useEffect(() => {
    if (floors.data?.length && value && !floors.data.includes(value)) onChange?.(null);
  }, [floors.data, value, onChange]);
  if (floors.data?.length === 0) {
    return (
      <Input
        id={props.id}
        value={props.value ?? ''}
        onChange={(e) => props.onChange?.(e.target.value)}
        allowClear
        placeholder="该楼宇未设楼层，可填写位置，如 夹层"
      />
    );
  }
  return (
    <Select
      {...props}
      allowClear
      loading={floors.isFetching}
      disabled={buildingId === undefined || buildingId === null}
      placeholder={buildingId ? '请选择楼层' : '请先选择所属楼宇'}
      options={floors.data?.map((floor) => ({ value: floor, label: floor }))}
    />
  );
}
