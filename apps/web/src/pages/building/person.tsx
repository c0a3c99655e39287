/** 楼宇负责人: who manages which buildings; found by name, phone or one of their buildings. */
import { buildingChargePerson } from '@cowork/contract/resources/building-charge-person';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function BuildingPersonPage() {
  return <ResourcePage resource={buildingChargePerson} />;
}
