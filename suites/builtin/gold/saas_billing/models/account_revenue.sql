{{ config(materialized='table') }}
with invoices as (
    select cast(i.invoice_id as bigint) as invoice_id, cast(s.account_id as bigint) as account_id,
           cast(i.amount as decimal(10, 2)) as amount, i.status
    from {{ source('airbyte_schema', 'invoices') }} i
    join {{ source('airbyte_schema', 'subscriptions') }} s
      on cast(s.subscription_id as bigint) = cast(i.subscription_id as bigint)
),
invoiced as (
    select account_id, sum(amount) as total from invoices where status <> 'void' group by 1
),
paid as (
    select i.account_id, sum(cast(p.amount as decimal(10, 2))) as total
    from {{ source('airbyte_schema', 'payments') }} p
    join invoices i on i.invoice_id = cast(p.invoice_id as bigint)
    group by 1
)
select
    cast(a.account_id as bigint) as account_id,
    a.company_name,
    coalesce(iv.total, 0) as invoiced_total,
    coalesce(pd.total, 0) as paid_total,
    coalesce(iv.total, 0) - coalesce(pd.total, 0) as balance,
    row_number() over (order by coalesce(pd.total, 0) desc, cast(a.account_id as bigint)) as revenue_rank
from {{ source('airbyte_schema', 'accounts') }} a
left join invoiced iv on iv.account_id = cast(a.account_id as bigint)
left join paid pd on pd.account_id = cast(a.account_id as bigint)
