import { Route, Routes } from 'react-router';
import { AnnouncementEditorRoute } from './announcement-editor';
import { AnnouncementsList } from './announcements-list';

/** Section 1 of the console: the list, and the editor for a new or existing announcement. */
export function AnnouncementsSection() {
  return (
    <Routes>
      <Route index element={<AnnouncementsList />} />
      <Route path=":id" element={<AnnouncementEditorRoute />} />
    </Routes>
  );
}
