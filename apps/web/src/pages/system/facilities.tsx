/** 设施配置: the highlights (亮点) and facilities (设施) buildings pick from. */
import { brightPoint } from '@cowork/contract/resources/bright-point';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function FacilitiesPage() {
  return <ResourcePage resource={brightPoint} />;
}
