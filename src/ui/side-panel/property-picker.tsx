/**
 * The searchable property picker of the run controls: a Headless UI Combobox (`multiple`) — type
 * to filter the properties by label, synonym or symbol (`filterProperties`), arrow keys and Enter
 * to add or remove one — with the chosen properties shown above it as chips, each with a Remove
 * button. Replaces a wall of checkboxes; labels are React text.
 */
import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { useState } from 'react';
import { filterProperties, type PickableProperty } from './run-summary';
import { countedLabel, rankedFound, type PropertyCounts } from './run-defaults';

export interface PropertyPickerProps {
  /** The properties offered, in display order. */
  properties: readonly PickableProperty[];
  /** The chosen properties' schema names. */
  selected: readonly string[];
  onChange(names: string[]): void;
  /** The quick scan's candidates per schema name: shown on the chips ("Band gap ×2") and as a "Found in this paper" line. */
  counts?: PropertyCounts;
}

/** The picker (see the module comment); the input's accessible name is "Add a property". */
export function PropertyPicker({ properties, selected, onChange, counts }: PropertyPickerProps) {
  const [query, setQuery] = useState('');
  const found = filterProperties(properties, query);
  const chosen = properties.filter((property) => selected.includes(property.name));
  const labels = new Map(properties.map((property) => [property.name, property.label]));
  const scanned = counts
    ? rankedFound(
        counts,
        properties.map((property) => property.name),
      )
    : [];
  return (
    <div className="property-picker" data-testid="property-picker">
      <p className="picker-legend">Properties</p>
      {scanned.length > 0 && (
        <p className="hint" data-testid="scan-found">
          Found in this paper by the quick scan:{' '}
          {scanned.map((entry) => countedLabel(labels.get(entry.name) ?? entry.name, entry.count)).join(', ')}
        </p>
      )}
      {chosen.length > 0 ? (
        <ul className="chips" aria-label="Chosen properties" data-testid="chosen-properties">
          {chosen.map((property) => (
            <li key={property.name} className="chip" data-property={property.name}>
              <span>{countedLabel(property.label, counts?.get(property.name))}</span>
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${property.label}`}
                onClick={() => onChange(selected.filter((name) => name !== property.name))}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">Choose at least one property.</p>
      )}
      <Combobox multiple immediate value={[...selected]} onChange={(names: string[]) => onChange(names)} onClose={() => setQuery('')}>
        <Field className="picker-field">
          <Label className="picker-label">Add a property</Label>
          {/* Enter picks the active option (Headless UI); it must never also submit a form the picker stands in (a run would start). */}
          <div
            className="picker-input"
            onKeyDown={(event) => {
              if (event.key === 'Enter') event.preventDefault();
            }}
          >
            <ComboboxInput
              placeholder="Search: band gap, Tc, modulus…"
              autoComplete="off"
              onChange={(event) => setQuery(event.currentTarget.value)}
              data-testid="property-search"
            />
            <ComboboxButton className="picker-toggle" aria-label="Show all properties">
              <span aria-hidden="true">▾</span>
            </ComboboxButton>
          </div>
          {found.length > 0 ? (
            <ComboboxOptions className="picker-options" data-testid="property-options">
              {found.map((property) => (
                <ComboboxOption key={property.name} value={property.name} className="picker-option">
                  <span className="picker-check" aria-hidden="true">
                    {selected.includes(property.name) ? '✓' : ''}
                  </span>
                  {property.label}
                </ComboboxOption>
              ))}
            </ComboboxOptions>
          ) : (
            <p className="hint" role="status">
              No property matches “{query}”.
            </p>
          )}
        </Field>
      </Combobox>
    </div>
  );
}
