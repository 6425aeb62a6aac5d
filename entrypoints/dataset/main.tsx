import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startDatasetWorker } from '../../src/ui/dataset-page/dataset-worker-start';
import { createAssayDatabase } from '../../src/store/assay-database';
import { DatasetPage } from '../../src/ui/dataset-page/dataset-page';
import '../../src/ui/shared/styles.css';
import '../../src/ui/dataset-page/dataset-page.css';

const database = createAssayDatabase();
// The search index is built and kept in a worker, off this page's main thread.
const search = startDatasetWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main className="dataset-page">
      <h1>Your dataset</h1>
      <DatasetPage database={database} search={search} />
    </main>
  </StrictMode>,
);
