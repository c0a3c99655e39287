/**
 * 会议室 (/product/meetingRoom) and 活动场地 (/product/activityVenue): one page, the route picks
 * the declaration. The floor is chosen among the chosen building's floors (free text when the
 * building has none) and facilities among the published facilities, not the highlights.
 */
import { useEffect } from 'react';
import { Form, Input, Select } from 'antd';
import { useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { BrightPointLabel } from '@cowork/contract/resources/bright-point';
import {
  facilityOptionsPath,
  officeStation,
  stationFloorsPath,
  stationOfPath,
  type StationResource,
} from '@cowork/contract/resources/station';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';
import { api } from '../../lib/request.ts';

interface InputProps<T> {
  id?: string;
  value?: T;
  onChange?: (value: T) => void;
}

function FloorSelect({ resource, ...props }: InputProps<string | null> & { resource: StationResource }) {
  const buildingId = Form.useWatch<number | undefined>('buildingId', Form.useFormInstance());
  const floors = useQuery({
    queryKey: [resource.key, 'floors', buildingId],
    queryFn: () => api.getById<string[]>(stationFloorsPath(resource), buildingId!),
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

function FacilitySelect(props: InputProps<number[]>) {
  const facilities = useQuery({
    queryKey: ['list', facilityOptionsPath],
    queryFn: () => api.get<BrightPointLabel[]>(facilityOptionsPath),
    staleTime: 60_000,
  });
  return (
    <Select
      {...props}
      mode="multiple"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={facilities.isFetching}
      placeholder="请选择设施"
      options={facilities.data?.map((f) => ({ value: f.id, label: f.name }))}
    />
  );
}

export default function StationPage() {
  const { pathname } = useLocation();
  const resource = stationOfPath[pathname.replace(/\/$/, '')] ?? officeStation;
  return (
    <ResourcePage
      // A fresh page per route, so the search form and paging of one menu never leak into the other.
      key={resource.key}
      resource={resource}
      inputs={{ floor: <FloorSelect resource={resource} />, facilityIds: <FacilitySelect /> }}
    />
  );
}
