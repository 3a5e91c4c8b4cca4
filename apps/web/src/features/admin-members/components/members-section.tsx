import { Route, Routes } from 'react-router';
import { MemberPage } from './member-page';
import { MembersSearch } from './members-search';

/** Section 3 of the console: search authors and linked members, and a member's page. */
export function MembersSection() {
  return (
    <Routes>
      <Route index element={<MembersSearch />} />
      <Route path=":memberId" element={<MemberPage />} />
    </Routes>
  );
}
