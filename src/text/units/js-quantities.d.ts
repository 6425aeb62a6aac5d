/** The part of js-quantities (no bundled types) that the unit converter uses. */
declare module 'js-quantities' {
  interface Quantity {
    readonly scalar: number;
    readonly numerator: string[];
    readonly denominator: string[];
    toBase(): Quantity;
    to(units: string): Quantity;
    kind(): string | undefined;
    units(): string;
  }
  function Qty(value: number, units: string): Quantity;
  function Qty(text: string): Quantity;
  export default Qty;
}
