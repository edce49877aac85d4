import { usd } from "../../contracts/money.ts";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useId, useMemo, useState } from "react";
import { SavingsChart } from "../components/savings/savings-chart.tsx";
import { calculatorPlans, INPUT_LIMITS, inputNumber, savings, savingsInputsFrom, type SavingsInputs } from "../../workers/domain/savings.ts";
import { ParityNote } from "../components/billing/parity.tsx";
import { loadPlans, priceHeaders, priceVaryHeaders, visitorParity } from "../lib/pricing.server.ts";
import accountStyles from "../styles/account.css?url";
import savingsStyles from "../styles/savings.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: savingsStyles },
];
export const meta: MetaFunction = () => [
  { title: "Pinterest time and money savings calculator | Pinboard Studio" },
  {
    name: "description",
    content: "How many hours and dollars a month you save by generating and scheduling your pins in bulk instead of making them one by one.",
  },
];

/**
 * The plans from the plans table at the visitor's parity-adjusted prices (what checkout would charge,
 * issue 17) and the inputs of the query (the form works without JavaScript), computed on the server.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const parity = visitorParity(request, context);
  const loaded = await loadPlans(context);
  if (!loaded.plans) throw new Error(loaded.loadError);
  const plans = calculatorPlans(loaded.plans, parity ?? undefined);
  return data({ plans, parity, inputs: savingsInputsFrom(new URL(request.url).searchParams, plans) }, { headers: priceVaryHeaders() });
}

export const headers = priceHeaders;

type NumberField = keyof typeof INPUT_LIMITS;

const FIELDS: { name: NumberField; label: string; hint: string; prefix?: string }[] = [
  { name: "pinsPerWeek", label: "Pins per week", hint: "How many pins you publish, or would like to." },
  { name: "minutesPerPinByHand", label: "Minutes per pin by hand", hint: "Designing the image, writing title and description, posting it to a board." },
  { name: "minutesPerPinWithApp", label: "Minutes per pin with Pinboard Studio", hint: "Checking a generated pin and its text before it is bulk-scheduled." },
  { name: "hourlyValue", label: "What an hour of your time is worth (USD)", hint: "Your rate, or what you would pay someone to do it." },
];

const hours = (value: number) => `${value.toLocaleString("en-US", { maximumFractionDigits: 1 })} hours`;

/** /savings-calculator (spec section 2): hours and money saved with the product against making pins by hand. */
export default function SavingsCalculatorPage() {
  const { plans, parity, inputs: initial } = useLoaderData<typeof loader>();
  const [values, setValues] = useState<Record<NumberField, string>>(() => ({
    pinsPerWeek: String(initial.pinsPerWeek),
    minutesPerPinByHand: String(initial.minutesPerPinByHand),
    minutesPerPinWithApp: String(initial.minutesPerPinWithApp),
    hourlyValue: String(initial.hourlyValue),
  }));
  const [planId, setPlanId] = useState(initial.planId);
  const tableId = useId();

  const inputs: SavingsInputs = useMemo(
    () => ({
      pinsPerWeek: inputNumber("pinsPerWeek", values.pinsPerWeek),
      minutesPerPinByHand: inputNumber("minutesPerPinByHand", values.minutesPerPinByHand),
      minutesPerPinWithApp: inputNumber("minutesPerPinWithApp", values.minutesPerPinWithApp),
      hourlyValue: inputNumber("hourlyValue", values.hourlyValue),
      planId,
    }),
    [values, planId],
  );
  const plan = plans.find((candidate) => candidate.planId === planId);
  const figures = useMemo(() => savings(inputs, plan), [inputs, plan]);

  return (
    <main className="page savings">
      <h1>Pinterest savings calculator</h1>
      <p className="lead">
        How much time and money you save by generating pins from your posts and products and bulk-scheduling them, instead of designing and posting each one by
        hand.
      </p>
      <ParityNote parity={parity} />
      <div className="savings__layout">
        <Form method="get" className="savings__form" aria-label="Your numbers" preventScrollReset>
          {FIELDS.map((field) => {
            const limits = INPUT_LIMITS[field.name];
            return (
              <div className="field" key={field.name}>
                <label className="field__label" htmlFor={`savings-${field.name}`}>
                  {field.label}
                </label>
                <p className="field__hint" id={`savings-${field.name}-hint`}>
                  {field.hint}
                </p>
                <input
                  id={`savings-${field.name}`}
                  className="field__input"
                  name={field.name}
                  type="number"
                  inputMode="decimal"
                  min={limits.min}
                  max={limits.max}
                  step={limits.step}
                  value={values[field.name]}
                  onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
                  aria-describedby={`savings-${field.name}-hint`}
                />
              </div>
            );
          })}
          <div className="field">
            <label className="field__label" htmlFor="savings-plan">
              Plan
            </label>
            <select id="savings-plan" className="field__input field__select" name="planId" value={planId} onChange={(event) => setPlanId(event.target.value)}>
              {plans.map((option) => (
                <option key={option.planId} value={option.planId}>
                  {`${option.label}: ${usd(option.pricePerMonth)} a month, ${option.creditsPerMonth} pin credits`}
                </option>
              ))}
            </select>
          </div>
          <noscript>
            <button type="submit" className="button button--primary">
              Update the figures
            </button>
          </noscript>
        </Form>

        <section className="savings__results" aria-labelledby="savings-results-title">
          <h2 id="savings-results-title">What you save</h2>
          <div className="savings__headline" aria-live="polite">
            <p>
              <span className="savings__big" data-testid="hours-saved">
                {hours(figures.hoursSaved)}
              </span>{" "}
              saved a month
            </p>
            <p>
              <span className="savings__big" data-testid="net-saving">
                {usd(figures.netSavingPerMonth)}
              </span>{" "}
              {figures.netSavingPerMonth >= 0
                ? "a month better off, after the plan's price"
                : "a month: at these numbers the plan costs more than the time it saves"}
            </p>
            <p className="savings__year">{`That is ${figures.hoursSavedPerYear.toLocaleString("en-US")} hours and ${usd(figures.netSavingPerYear)} a year.`}</p>
          </div>
          {plan && !figures.planCoversPins ? (
            <p className="savings__warning" role="note">
              {`${figures.pinsPerMonth.toLocaleString("en-US")} pins a month need ${figures.creditsNeeded.toLocaleString("en-US")} pin credits; the ${plan.label} plan has ${plan.creditsPerMonth.toLocaleString("en-US")}. Choose a larger plan for this many pins.`}
            </p>
          ) : null}
          <SavingsChart figures={figures} describedBy={tableId} />
          <table className="savings__table" id={tableId}>
            <caption>Per month, for {figures.pinsPerMonth.toLocaleString("en-US")} pins</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Figure</span>
                </th>
                <th scope="col">By hand</th>
                <th scope="col">With Pinboard Studio</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Hours spent</th>
                <td>{hours(figures.hoursByHand)}</td>
                <td>{hours(figures.hoursWithApp)}</td>
              </tr>
              <tr>
                <th scope="row">Value of your time</th>
                <td>{usd(figures.timeCostByHand)}</td>
                <td>{usd(figures.timeCostWithApp)}</td>
              </tr>
              <tr>
                <th scope="row">Plan</th>
                <td>{usd(0)}</td>
                <td>{usd(figures.planPrice)}</td>
              </tr>
              <tr>
                <th scope="row">Total</th>
                <td>{usd(figures.timeCostByHand)}</td>
                <td>{usd(figures.timeCostWithApp + figures.planPrice)}</td>
              </tr>
            </tbody>
          </table>
          <p className="savings__note">
            A month is 52 ÷ 12 weeks. Each image pin uses 1 pin credit when it is scheduled.{" "}
            {parity
              ? `Prices are in US dollars at your country's pricing, ${parity.percentageAdjustment}% off the list prices, as checkout charges them;`
              : "Prices are the list prices in US dollars;"}{" "}
            annual plans are shown per month. <Link to="/pricing">See all plans</Link> or{" "}
            <Link to="/pinterest-mini-course">learn the routine in the free mini-course</Link>.
          </p>
        </section>
      </div>
    </main>
  );
}
