import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createAssayDatabase } from '../../src/store/assay-database';
import { DatasetTable } from '../../src/ui/dataset-table';
import '../../src/ui/styles.css';

const database = createAssayDatabase();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main>
      <h1>Your dataset</h1>
      <DatasetTable database={database} />
    </main>
  </StrictMode>,
);
