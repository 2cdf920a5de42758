// Renders a component as the app does: inside a router and a data provider (a fake by default),
// and the session states the tests switch between (useSession is mocked per test file).
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { CruxData } from '../../../app/src/data/index.js';
import { DataProvider } from '../../../app/src/context/DataProvider';
import type { SessionState } from '../../../app/src/auth/session';
import { fakeData } from '../../fixtures/fake-data';

export function renderWithData(ui: ReactElement, data: CruxData = fakeData(), route = '/') {
  return render(
    <MemoryRouter initialEntries={[route]}>
      <DataProvider data={data}>{ui}</DataProvider>
    </MemoryRouter>,
  );
}

export const SIGNED_OUT: SessionState = { ready: true, user: null, profilePending: false };
export const SIGNED_IN: SessionState = {
  ready: true,
  user: { uid: 'uid-ada', email: 'ada@example.org', displayName: 'Ada' },
  profilePending: false,
};
