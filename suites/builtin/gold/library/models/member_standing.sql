{{ config(materialized='table') }}
with loans as (
    select
        cast(loan_id as bigint) as loan_id,
        cast(member_id as bigint) as member_id,
        cast(due_on as date) as due_on,
        try_cast(nullif(cast(returned_on as varchar), '') as date) as returned_on
    from {{ source('airbyte_schema', 'loans') }}
),
per_member as (
    select member_id, count(*) as loans_total,
           count(*) filter (
               where returned_on > due_on or (returned_on is null and due_on < date '2025-01-01')
           ) as overdue_loans
    from loans group by member_id
),
fines as (
    select l.member_id, sum(cast(f.amount as decimal(10, 2))) as unpaid
    from {{ source('airbyte_schema', 'fines') }} f
    join loans l on l.loan_id = cast(f.loan_id as bigint)
    where lower(cast(f.paid as varchar)) <> 'true'
    group by l.member_id
),
members as (
    select cast(m.member_id as bigint) as member_id, m.first_name || ' ' || m.last_name as member_name, b.branch_name
    from {{ source('airbyte_schema', 'members') }} m
    left join {{ source('airbyte_schema', 'branches') }} b on cast(b.branch_id as bigint) = cast(m.home_branch_id as bigint)
)
select
    m.member_id,
    m.member_name,
    m.branch_name as home_branch,
    coalesce(p.loans_total, 0) as loans_total,
    coalesce(p.overdue_loans, 0) as overdue_loans,
    coalesce(f.unpaid, 0) as unpaid_fines,
    case
        when coalesce(f.unpaid, 0) >= 5 then 'blocked'
        when coalesce(f.unpaid, 0) > 0 or coalesce(p.overdue_loans, 0) >= 2 then 'warning'
        else 'good'
    end as standing
from members m
left join per_member p on p.member_id = m.member_id
left join fines f on f.member_id = m.member_id
