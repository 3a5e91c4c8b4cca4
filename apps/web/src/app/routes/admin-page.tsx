import { AdminApp } from '../../components/admin/admin-app';
import { adminSections } from '../admin-sections';

/** `/admin/*`: the operator console, a chunk of its own (router.tsx loads it lazily). */
export function AdminPage() {
  return <AdminApp sections={adminSections} />;
}
