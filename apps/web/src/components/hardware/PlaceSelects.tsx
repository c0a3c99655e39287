/**
 * Where a device is, picked in a form: a building, and a space offered as `楼宇 / 上级空间 / 空间`,
 * narrowed to the building chosen (注册设备, 开门记录's search). A space of another building would
 * find nothing: changing the building lets go of it.
 */
import { Form, Select, type SelectProps } from 'antd';
import { useBuildingOptions, useSpaceOptions } from './DevicePicker.tsx';

/** The buildings; a choice that does not hold the form's `spaceField` clears it. */
export function BuildingSelect({
  spaceField = 'spaceId',
  onChange,
  ...props
}: SelectProps<number> & { spaceField?: string }) {
  const form = Form.useFormInstance();
  const buildings = useBuildingOptions();
  const spaces = useSpaceOptions();
  return (
    <Select<number>
      {...props}
      allowClear
      options={buildings.data ?? []}
      loading={buildings.isLoading}
      onChange={(id, option) => {
        onChange?.(id, option);
        if (!spaces.fits(form.getFieldValue(spaceField), id)) form.setFieldValue(spaceField, undefined);
      }}
    />
  );
}

/** The spaces, only those of the form's `buildingField` once one is chosen. */
export function SpaceSelect({
  buildingField = 'buildingId',
  ...props
}: SelectProps<number> & { buildingField?: string }) {
  const form = Form.useFormInstance();
  const spaces = useSpaceOptions(Form.useWatch<number | undefined>(buildingField, form));
  return (
    <Select<number>
      {...props}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      options={spaces.options}
      loading={spaces.loading}
    />
  );
}
