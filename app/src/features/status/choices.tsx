// The options of a select in the operator view whose choices and their words come from the server's
// answer as [value, words] pairs: statuses, impacts, components, component statuses, webhook formats.
export function Choices({ choices }: { choices: readonly (readonly [string, string])[] }) {
  return (
    <>
      {choices.map(([value, words]) => (
        <option key={value} value={value}>
          {words}
        </option>
      ))}
    </>
  );
}
