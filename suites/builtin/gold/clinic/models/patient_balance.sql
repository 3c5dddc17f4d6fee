{{ config(materialized='table') }}
with patients as (
    select cast(patient_id as bigint) as patient_id, first_name, last_name, cast(birth_date as date) as birth_date
    from {{ source('airbyte_schema', 'patients') }}
),
appts as (
    select cast(appointment_id as bigint) as appointment_id, cast(patient_id as bigint) as patient_id, status
    from {{ source('airbyte_schema', 'appointments') }}
),
meds as (
    select a.patient_id, sum(cast(p.quantity as bigint) * cast(m.unit_price as decimal(10, 2))) as medication_cost
    from {{ source('airbyte_schema', 'prescriptions') }} p
    join appts a on a.appointment_id = cast(p.appointment_id as bigint)
    join {{ source('airbyte_schema', 'medications') }} m on cast(m.medication_id as bigint) = cast(p.medication_id as bigint)
    group by a.patient_id
),
bills as (
    select a.patient_id,
           sum(cast(i.amount as decimal(10, 2))) as billed_total,
           sum(cast(i.paid_amount as decimal(10, 2))) as paid_total
    from {{ source('airbyte_schema', 'invoices') }} i
    join appts a on a.appointment_id = cast(i.appointment_id as bigint)
    group by a.patient_id
),
visits as (
    select patient_id, count(*) as completed_visits from appts where status = 'completed' group by patient_id
),
aged as (
    select *, date_sub('year', birth_date, date '2025-01-01') as age_years from patients
)
select
    p.patient_id,
    p.first_name || ' ' || p.last_name as patient_name,
    p.age_years,
    case when p.age_years < 18 then 'child' when p.age_years >= 65 then 'senior' else 'adult' end as age_group,
    coalesce(v.completed_visits, 0) as completed_visits,
    coalesce(m.medication_cost, 0) as medication_cost,
    coalesce(b.billed_total, 0) as billed_total,
    coalesce(b.billed_total, 0) - coalesce(b.paid_total, 0) as outstanding
from aged p
left join visits v on v.patient_id = p.patient_id
left join meds m on m.patient_id = p.patient_id
left join bills b on b.patient_id = p.patient_id
