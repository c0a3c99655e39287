/**
 * 会议室 (/product/meetingRoom) and 活动场地 (/product/activityVenue): one page, the route picks
 * the declaration. The floor is chosen among the chosen building's floors (free text when the
 * building has none) and facilities among the published facilities, not the highlights. Rooms
 * and venues are also imported from Excel, like the seats.
 */
import { Select } from 'antd';
import { useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { BrightPointLabel } from '@cowork/contract/resources/bright-point';
import { facilityOptionsPath, officeStation, stationOfPath } from '@cowork/contract/resources/station';
import { ResourceExcelImport } from '../../components/ExcelImport.tsx';
import { FloorSelect } from '../../components/FloorSelect.tsx';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';
import { api } from '../../lib/request.ts';

interface InputProps<T> {
  id?: string;
  value?: T;
  onChange?: (value: T) => void;
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
      inputs={{ floor: <FloorSelect />, facilityIds: <FacilitySelect /> }}
      toolbar={<ResourceExcelImport resource={resource} />}
    />
  );
}
